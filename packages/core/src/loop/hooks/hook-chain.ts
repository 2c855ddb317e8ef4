/**
 * A run's hooks, composed once when the run starts: each middleware phase becomes one
 * function (the first hook's wrapper outermost, the loop's own step innermost), and the
 * other phases run in hook order. The spine calls these and nothing else of the hooks.
 */
import type { Message } from '../../message/message.js';
import type { LoopSettings, NextStep } from '../loop-types.js';
import type { HookStep } from './agent-hook.js';
import type { Append, EpisodeEnd, LoopHook, LoopHookState, ModelCall, ToolBatchRun, UserBoundary } from './loop-hook.js';

/** The loop's own steps, which the middleware phases wrap. */
export interface InnerSteps {
  callModel: ModelCall;
  runTools: ToolBatchRun;
  append: Append;
}

/** One run's hooks (see the module comment). */
export class HookChain {
  readonly callModel: ModelCall;
  readonly runTools: ToolBatchRun;
  readonly append: Append;
  private readonly settingsHooks: LoopHook[];
  private readonly stepHooks: LoopHook[];
  private readonly deciders: LoopHook[];
  private readonly finishers: LoopHook[];
  private readonly boundaries: LoopHook[];

  constructor(hooks: readonly LoopHook[], inner: InnerSteps) {
    this.callModel = hooks.reduceRight((next, hook) => hook.wrapModelCall?.(next) ?? next, inner.callModel);
    this.runTools = hooks.reduceRight((next, hook) => hook.wrapToolBatch?.(next) ?? next, inner.runTools);
    this.append = hooks.reduceRight((next, hook) => hook.wrapAppend?.(next) ?? next, inner.append);
    this.settingsHooks = hooks.filter((hook) => hook.settings);
    this.stepHooks = hooks.filter((hook) => hook.afterStep);
    this.deciders = hooks.filter((hook) => hook.decide);
    this.finishers = hooks.filter((hook) => hook.finish);
    this.boundaries = hooks.filter((hook) => hook.atUserBoundary);
  }

  /** True when some hook steers the episode (the spine skips building the state otherwise). */
  get decides(): boolean {
    return this.deciders.length > 0;
  }

  /** The settings of a model call or tool batch on `messages`. */
  settings(settings: LoopSettings, messages: readonly Message[]): LoopSettings {
    let result = settings;
    for (const hook of this.settingsHooks) result = hook.settings?.(result, messages) ?? result;
    return result;
  }

  /** After a model step is persisted. */
  async afterStep(step: HookStep): Promise<void> {
    for (const hook of this.stepHooks) await hook.afterStep?.(step);
  }

  /** The next step, as every hook that steers leaves it. */
  async decide(next: NextStep, state: LoopHookState): Promise<NextStep> {
    let result = next;
    for (const hook of this.deciders) result = (await hook.decide?.(result, state)) ?? result;
    return result;
  }

  /** Before a new episode's user message is saved. */
  async atUserBoundary(boundary: UserBoundary): Promise<void> {
    for (const hook of this.boundaries) await hook.atUserBoundary?.(boundary);
  }

  /** At the episode's end: the structured answer, when a hook gives one. */
  async finish(end: EpisodeEnd): Promise<unknown> {
    let output: unknown;
    for (const hook of this.finishers) {
      const given = await hook.finish?.(end);
      if (given && 'output' in given) output = given.output;
    }
    return output;
  }
}
