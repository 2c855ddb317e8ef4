/**
 * The loop's own state in one run of an episode: its step, the model calls the run
 * made, their usage, the reasoning report, and the results of the tool batch just run.
 * It changes as the episode goes on, only through its own methods; nothing outside the
 * run holds it.
 */
import type { ToolMessage, Usage } from '../message/message.js';
import type { Pricing } from '../model/model-profile.js';
import { addSubSessionUsage, addUsage, emptyUsageTotals, type UsageTotals } from '../model/usage-totals.js';
import type { ReasoningReporter } from '../reasoning/stats/reasoning-report.js';

/** One run's progress through its episode (see the module comment). */
export class EpisodeProgress {
  /** Model calls since the episode began (this run's and an interrupted run's before it). */
  private currentStep = 0;
  /** Model calls made by this run. */
  private modelCalls = 0;
  private totals: UsageTotals;
  /** The results of the tool batch just run, for the hooks that decide after it. */
  private batchResults: readonly ToolMessage[] | undefined;

  constructor(
    readonly reporter: ReasoningReporter,
    private readonly pricing: Pricing | undefined,
  ) {
    this.totals = emptyUsageTotals(pricing);
  }

  get step(): number {
    return this.currentStep;
  }

  get calls(): number {
    return this.modelCalls;
  }

  get usage(): UsageTotals {
    return this.totals;
  }

  /** Where a resumed episode stands: the steps its transcript already holds. */
  resumeAt(steps: number): void {
    this.currentStep = steps;
  }

  /** The number of the step about to call the model. */
  nextStep(): number {
    this.currentStep += 1;
    return this.currentStep;
  }

  /** A model call made and saved; `again` when the same step goes on (a response paused after a compaction). */
  called(usage: Usage, again: boolean): void {
    this.totals = addUsage(this.totals, usage, this.pricing);
    this.modelCalls += 1;
    if (again) this.currentStep -= 1;
  }

  /** A tool batch run: its sub-agents' usage counts, and its results wait for the hooks that decide. */
  toolsRan(results: readonly ToolMessage[]): void {
    for (const result of results) if (result.subSession) this.totals = addSubSessionUsage(this.totals, result.subSession);
    this.batchResults = results;
  }

  /** The results of the batch just run, handed out once. */
  takeResults(): readonly ToolMessage[] | undefined {
    const results = this.batchResults;
    this.batchResults = undefined;
    return results;
  }
}
