/**
 * An importer checks itself: each recorded call's reported input is set against the
 * transcript's own count of what came before that call (scaled to the provider's
 * tokenizer by the same fit `episodic budget` uses). The difference is the fixed
 * prefix the session file does not hold; when it is larger than the agent's known
 * prefix can explain (see `known-prefixes.ts`), history is missing from the
 * transcript and the import says so instead of handing on a silently short session.
 */
import { createTokenCounter, EpisodicError } from '@episodic/core';
import { BilledView } from '../budget/billed-view.js';
import { gapTolerance, inferPrefix } from '../budget/prefix-inference.js';
import { replayAsRecorded } from '../budget/recorded-replay.js';
import type { ImportResult, IncompleteCall, Reconciliation } from './import-result.js';
import { prefixLimit } from './known-prefixes.js';

/** Reconciles an import with its recorded usage; undefined when no call recorded usage. */
export function reconcileImport(result: ImportResult): Reconciliation | undefined {
  const counter = createTokenCounter();
  const recorded = replayAsRecorded({ messages: result.messages, tools: result.tools, counter, billing: new BilledView(counter, result.pastReasoning ?? 'billed') });
  if (recorded.length === 0) return undefined;
  const inference = inferPrefix(recorded, { fallbackFactor: 1, prefixRecorded: result.prefixRecorded });
  const groups = new Map(inference.groups.map((group) => [`${group.segment}\u0000${group.model}`, group]));
  const limit = prefixLimit(result.source, result.agentVersion, result.prefixShown);
  const incomplete: IncompleteCall[] = [];
  let within = 0;
  recorded.forEach((call, index) => {
    const group = groups.get(`${call.segment}\u0000${call.model}`);
    const factor = group?.factor ?? inference.factor;
    const reported = call.reported.inputTokens;
    const holds = Math.round(factor * call.localTokens + call.hiddenTokens);
    const fitted = holds + (group?.prefixTokens ?? 0);
    if (reported > 0 && Math.abs(fitted - reported) <= gapTolerance * reported) within += 1;
    const room = call.segment > 0 ? limit.afterCompaction : limit.start;
    if (reported - holds > room + gapTolerance * reported) incomplete.push({ call: index + 1, line: call.line, reported, holds });
  });
  return {
    calls: recorded.length,
    withinShare: within / recorded.length,
    prefixTokens: inference.groups[0]?.prefixTokens ?? 0,
    limit,
    incomplete,
  };
}

/** An import whose recorded usage shows history the transcript does not hold. */
export class IncompleteImportError extends EpisodicError {
  readonly file: string;
  readonly incomplete: IncompleteCall[];

  constructor(file: string, reconciliation: Reconciliation) {
    super('incomplete_import', `${file}: ${incompleteSummary(reconciliation)}. Pass --lossy to import it anyway.`);
    this.file = file;
    this.incomplete = reconciliation.incomplete;
  }
}

/** "incomplete: call N reported X tokens, the transcript holds Y", with how many more and why that is too much. */
export function incompleteSummary(reconciliation: Reconciliation): string {
  const first = reconciliation.incomplete[0];
  if (!first) return 'complete';
  const more = reconciliation.incomplete.length - 1;
  return (
    `incomplete: call ${first.call} (transcript line ${first.line}) reported ${first.reported} tokens, the transcript holds ` +
    `${first.holds}${more > 0 ? ` (and ${more} more calls like it)` : ''}; the gap is more than the fixed prefix of ` +
    `${reconciliation.limit.measuredOn} can explain`
  );
}
