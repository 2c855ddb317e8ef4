/**
 * What the recording does not hold, inferred from what the provider reported, and
 * how close the replay then comes to it, call by call.
 *
 * Agent session files (Claude Code, Codex, pi) hold neither the system prompt nor
 * the tool definitions, yet every call sent them: replaying the transcript alone
 * undercounts every call by that fixed prefix. And the local tokenizer (o200k) is
 * not the provider's. Each call with usage gives one equation
 * `reported = prefix + factor * replayed + hidden reasoning`. The prefix comes from
 * the first call's reported input (it holds little else) and the factor is the
 * median slope from that call to each later one, robust to odd calls (the session's
 * factor, Theil-Sen over all pairs, for groups with few calls). Calls are fitted in
 * groups: one per compaction segment (the
 * agent may add context after a compaction that the transcript does not show) and
 * model (a model switch changes the tokenizer and the tools' wire form). A group with
 * few calls takes the slope fitted on all of them. A recording that holds its prefix
 * (an API log, or --system and --tools given) only has the factor fitted.
 */
import { cacheExpired } from './call-time.js';
import type { CacheFacts } from './priced-model.js';
import type { RecordedCall } from './recorded-replay.js';

/** A replayed call further from the reported input than this share is flagged. */
export const gapTolerance = 0.1;

/** Pairs of calls closer than this (local tokens) say little about the slope. */
const minimumSpread = 256;
/** Calls per segment used for slopes; more are sampled evenly (the pairs grow with the square). */
const sampledCalls = 300;

/** Calls of one compaction segment made by one model: one prefix and one scale. */
export interface FitGroup {
  segment: number;
  /** `provider/id` of the calls' model, or `unknown`. */
  model: string;
  firstLine: number;
  calls: number;
  /** Provider tokens per local token. */
  factor: number;
  /** `fitted` on this group's calls, `session` fitted on all groups together, or the `profile`'s. */
  factorSource: 'fitted' | 'session' | 'profile';
  /** Provider tokens every call of the group starts with that the transcript does not hold. */
  prefixTokens: number;
}

/** The prefix and scale the replays use. */
export interface PrefixInference {
  /** True when the prefix was inferred because the recording lacks the system prompt and tools. */
  inferred: boolean;
  groups: FitGroup[];
  /** The group the budget replays take their prefix and scale from (the priced model's largest). */
  main: FitGroup | null;
  /** The main group's: what the budget replays send as system prompt and tools, in provider tokens. */
  prefixTokens: number;
  factor: number;
}

/** One recorded call: replayed against reported. */
export interface CallComparison {
  call: number;
  line: number;
  segment: number;
  replayedInput: number;
  reportedInput: number;
  /** `(replayed - reported) / reported`. */
  gap: number;
  predictedCached: number;
  reportedCached: number;
}

/** The replay against the recording. */
export interface Fidelity {
  calls: CallComparison[];
  /** Share of calls within {@link gapTolerance} of the reported input. */
  withinShare: number;
  /** The call furthest from its reported input. */
  worst: CallComparison | null;
  /** What explains flagged calls, when something does. */
  notes: string[];
}

/** Calls a group needs to get a scale of its own. */
const ownFactorCalls = 8;

/**
 * Fits a scale and a prefix per group (compaction segment and model). `fallbackFactor`
 * is the profile's tokenizer factor; `mainModel` the model the budget replays price.
 */
export function inferPrefix(
  calls: readonly RecordedCall[],
  options: { fallbackFactor: number; prefixRecorded: boolean; mainModel?: string | undefined },
): PrefixInference {
  const points = calls.map((call) => ({
    key: `${call.segment}\u0000${call.model}`,
    x: call.localTokens,
    y: call.reported.inputTokens - call.hiddenTokens,
  }));
  const byGroup = groupBy(points, (point) => point.key);
  const usable = (slope: number | undefined) => (slope !== undefined && slope >= 0.5 && slope <= 3 ? slope : undefined);
  const ratio = (group: readonly Point[]) => usable(median(group.filter((point) => point.x > 0).map((point) => point.y / point.x)));
  const session = options.prefixRecorded ? ratio(points) : usable(theilSen([...byGroup.values()]));
  const groups = [...byGroup.values()].map((group): FitGroup => {
    const first = calls.find((call) => `${call.segment}\u0000${call.model}` === group[0]!.key)!;
    const own = group.length >= ownFactorCalls ? (options.prefixRecorded ? ratio(group) : usable(anchoredSlope(group))) : undefined;
    const factor = own ?? session ?? options.fallbackFactor;
    const anchor = group[0]!;
    return {
      segment: first.segment,
      model: first.model,
      firstLine: first.line,
      calls: group.length,
      factor,
      factorSource: own !== undefined ? 'fitted' : session !== undefined ? 'session' : 'profile',
      prefixTokens: options.prefixRecorded ? 0 : Math.max(0, Math.round(anchor.y - factor * anchor.x)),
    };
  });
  const candidates = groups.filter((group) => group.model === options.mainModel);
  const main = (candidates.length > 0 ? candidates : groups).reduce<FitGroup | null>(
    (best, group) => (!best || group.calls > best.calls ? group : best),
    null,
  );
  return {
    inferred: !options.prefixRecorded && calls.length > 0,
    groups,
    main,
    prefixTokens: main?.prefixTokens ?? 0,
    factor: main?.factor ?? session ?? options.fallbackFactor,
  };
}

interface Point {
  key: string;
  x: number;
  y: number;
}

/** Every recorded call replayed with the inferred prefix and factor, against what was reported. */
export function compareWithRecording(calls: readonly RecordedCall[], inference: PrefixInference, cache: CacheFacts): Fidelity {
  const groupOf = new Map(inference.groups.map((group) => [`${group.segment}\u0000${group.model}`, group]));
  const compared = calls.map((call, index): CallComparison => {
    const group = groupOf.get(`${call.segment}\u0000${call.model}`);
    const prefix = group?.prefixTokens ?? 0;
    const factor = group?.factor ?? inference.factor;
    const replayedInput = Math.round(prefix + factor * call.localTokens + call.hiddenTokens);
    const shared =
      call.sharedLocalTokens > 0 ? Math.round(prefix + factor * call.sharedLocalTokens + call.sharedHiddenTokens) : 0;
    const expired = cacheExpired(calls[index - 1]?.requestTime, call.requestTime, cache.ttlSeconds);
    const cacheable = cache.style !== 'none' && shared >= cache.minCacheableTokens && !expired;
    const reportedInput = call.reported.inputTokens;
    return {
      call: call.call,
      line: call.line,
      segment: call.segment,
      replayedInput,
      reportedInput,
      gap: reportedInput > 0 ? (replayedInput - reportedInput) / reportedInput : 0,
      predictedCached: cacheable ? Math.min(shared, replayedInput) : 0,
      reportedCached: call.reported.cachedInputTokens ?? 0,
    };
  });
  const within = compared.filter((call) => Math.abs(call.gap) <= gapTolerance).length;
  const worst = compared.reduce<CallComparison | null>(
    (found, call) => (!found || Math.abs(call.gap) > Math.abs(found.gap) ? call : found),
    null,
  );
  return {
    calls: compared,
    withinShare: compared.length > 0 ? within / compared.length : 1,
    worst,
    notes: explainGaps(compared),
  };
}

/** Patterns in the flagged calls that have a known cause. */
function explainGaps(calls: readonly CallComparison[]): string[] {
  const flagged = calls.filter((call) => Math.abs(call.gap) > gapTolerance);
  if (flagged.length === 0) return [];
  const notes: string[] = [];
  const counts = new Map<number, number>();
  for (const call of calls) counts.set(call.reportedInput, (counts.get(call.reportedInput) ?? 0) + 1);
  const [ceiling, times] = [...counts.entries()].reduce((top, entry) => (entry[1] > top[1] ? entry : top), [0, 0]);
  if (times >= 3 && times >= calls.length / 10) {
    notes.push(
      `the reported input is exactly ${ceiling} tokens on ${times} calls: the server cut the prompt to its context ` +
        'length there, while the replay sends everything, so those calls replay larger than reported',
    );
  }
  const segmentStarts = new Set<CallComparison>();
  for (const call of calls) {
    if (call.segment > 0 && ![...segmentStarts].some((found) => found.segment === call.segment)) segmentStarts.add(call);
  }
  const atStarts = flagged.filter((call) => segmentStarts.has(call)).length;
  if (atStarts > 0) {
    notes.push(
      `${atStarts} flagged call(s) right after a compaction: the agent added context there that the transcript does not show`,
    );
  }
  return notes;
}

function theilSen(groups: readonly (readonly Point[])[]): number | undefined {
  const slopes: number[] = [];
  for (const group of groups) {
    const step = Math.max(1, Math.ceil(group.length / sampledCalls));
    const sample = group.filter((_, index) => index % step === 0);
    for (let first = 0; first < sample.length; first += 1) {
      for (let second = first + 1; second < sample.length; second += 1) {
        const a = sample[first]!;
        const b = sample[second]!;
        if (Math.abs(b.x - a.x) >= minimumSpread) slopes.push((b.y - a.y) / (b.x - a.x));
      }
    }
  }
  return slopes.length >= 3 ? median(slopes) : undefined;
}

/** The median slope from the group's first call to each later one. */
function anchoredSlope(group: readonly Point[]): number | undefined {
  const anchor = group[0]!;
  const slopes = group
    .slice(1)
    .filter((point) => Math.abs(point.x - anchor.x) >= minimumSpread)
    .map((point) => (point.y - anchor.y) / (point.x - anchor.x));
  return slopes.length >= 3 ? median(slopes) : undefined;
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function groupBy<T>(values: readonly T[], key: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const name = key(value);
    const group = groups.get(name);
    if (group) group.push(value);
    else groups.set(name, [value]);
  }
  return groups;
}
