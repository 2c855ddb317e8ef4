/**
 * Per-call metrics of a packing strategy, computed independently of the packer
 * (Episodic's own `stats` are not used): tokens sent, prefix reuse against the
 * previous call, cost with cached input, past-episode reasoning sent, orphaned tool
 * calls or results, budget overruns and empty contexts.
 *
 * Tokens are counted with @episodic/core's counter recipe over exactly what is
 * sent: system + tools + messages + the reply priming (FRAMING.reply).
 */
import { FRAMING, modelledReads, readerCap } from '@episodic/core/internal';

/** OpenAI gpt-5 input price per token, and the share paid for cached input. */
export const PRICE = { inputPerToken: 1.25 / 1e6, cachedShare: 0.1 };
/** Prompt caching applies only to prefixes of at least this many tokens. */
export const MIN_CACHED_PREFIX = 1024;
/** The cause of a modelled read of a cut result (see `record`). */
export const READ_CAUSE = 'read of a cut result';

/**
 * Maps every reasoning text of a transcript to the index of its episode (the number
 * of user messages before it, minus one). Generated reasoning texts are unique.
 * @param {import('@episodic/core').Message[]} messages
 */
export function reasoningEpisodes(messages) {
  const episodes = new Map();
  let episode = -1;
  for (const message of messages) {
    if (message.role === 'user') episode += 1;
    if (message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'reasoning') episodes.set(part.text, episode);
  }
  return episodes;
}

/** Percentile of a sorted array (nearest rank). */
export function percentile(sorted, share) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
}

function orphansOf(messages) {
  const calls = new Set();
  const results = new Set();
  for (const message of messages) {
    if (message.role === 'tool') results.add(message.toolCallId);
    else if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'tool-call') calls.add(part.id);
    }
  }
  let orphans = 0;
  for (const id of calls) if (!results.has(id)) orphans += 1;
  for (const id of results) if (!calls.has(id)) orphans += 1;
  return orphans;
}

/** Per cause: calls, mean reuse, share of the mean reuse lost, pack time median and max. */
function breakdown(calls) {
  const groups = new Map();
  for (const call of calls) {
    const group = groups.get(call.cause) ?? [];
    group.push(call);
    groups.set(call.cause, group);
  }
  return [...groups].map(([cause, group]) => {
    const times = group.map((call) => call.packNanoseconds / 1e6).sort((a, b) => a - b);
    return {
      cause,
      calls: group.length,
      meanReuse: group.reduce((sum, call) => sum + call.reuse, 0) / group.length,
      reuseLost: group.reduce((sum, call) => sum + 1 - call.reuse, 0) / calls.length,
      packMedianMs: percentile(times, 0.5),
      packMaxMs: times[times.length - 1],
    };
  });
}

/**
 * Records the calls of one strategy at one budget.
 * @param {{ counter: import('@episodic/core').TokenCounter, system: string,
 *   tools: import('@episodic/core').ToolSpec[], budget: number, episodeOfReasoning: Map<string, number>,
 *   stripsPastReasoning?: boolean }} options
 *   `stripsPastReasoning`: the priced provider strips reasoning of earlier episodes before the model
 *   reads it (OpenAI): such reasoning is counted as hidden, not as read (it is still billed here).
 *   `cacheTtlMs`: with each call's `now`, a call more than this after the previous one reads nothing
 *   from the cache (its cost is uncached; the byte reuse is still reported).
 *   `pack`: the packing knobs the strategy packs with (their tool-result caps size a read of a cut result).
 */
export function createRecorder({ counter, system, tools, budget, episodeOfReasoning, stripsPastReasoning = false, cacheTtlMs, pack = {} }) {
  // The largest read of a cut result: as the agent's reader sizes it (see `modelledReads`).
  const readCap = readerCap(budget, pack);
  const keys = new WeakMap();
  const reasoningTokens = new Map();
  // System and tools are the same on every call of the bench, so they always match.
  const prefixTokens = counter.countSystem(system) + counter.countTools(tools);
  const calls = [];
  let previous = [];
  let previousAt;

  const keyOf = (message) => {
    let key = keys.get(message);
    if (key === undefined) {
      key = JSON.stringify(message);
      keys.set(message, key);
    }
    return key;
  };
  // What the provider renders: with `stripsPastReasoning`, a message's reasoning of an earlier
  // episode is removed before the model reads it, so it is neither billed nor part of the
  // cached prefix (OpenAI: the prompt then omits those items, and a call after the user
  // boundary cannot hit the cache past them, whether the client sent them or not).
  const strippedForms = new WeakMap();
  const pastEpisodeOf = (message) => {
    for (const part of message.content) if (part.type === 'reasoning') return episodeOfReasoning.get(part.text);
    return undefined;
  };
  const rendered = (message, currentEpisode) => {
    if (!stripsPastReasoning || message.role !== 'assistant') return message;
    const episode = pastEpisodeOf(message);
    if (episode === undefined || episode >= currentEpisode) return message;
    let form = strippedForms.get(message);
    if (form === undefined) {
      const content = message.content.filter((part) => part.type !== 'reasoning' || episodeOfReasoning.get(part.text) === undefined);
      form = content.length > 0 ? { ...message, content } : null;
      strippedForms.set(message, form);
    }
    return form;
  };
  const reasoningCost = (text) => {
    let tokens = reasoningTokens.get(text);
    if (tokens === undefined) {
      tokens = FRAMING.reasoning + counter.countText(text);
      reasoningTokens.set(text, tokens);
    }
    return tokens;
  };

  // A read call sends the previous call's input (its prefix cached) plus the read, within the budget.
  const recordRead = (read) => {
    const last = calls[calls.length - 1];
    const tokens = Math.min(budget, last.tokens + read);
    const reused = last.tokens - FRAMING.reply;
    const cached = reused >= MIN_CACHED_PREFIX ? reused : 0;
    calls.push({
      ...last,
      cause: READ_CAUSE,
      packNanoseconds: 0,
      tokens,
      reused,
      reuse: reused / tokens,
      cost: (tokens - cached + cached * PRICE.cachedShare) * PRICE.inputPerToken,
      overBudget: false,
      predictionError: undefined,
    });
  };

  return {
    /**
     * @param {{ packed: import('@episodic/core').Message[] | undefined, currentEpisode: number,
     *   currentUser: import('@episodic/core').Message, packNanoseconds: number, cause?: string }} call
     *   `packed` is undefined when the strategy threw; `cause` labels the call for the breakdown;
     *   `predictedReused` is the packer's own reuse prediction, if it makes one (cross-checked);
     *   `fresh`: the messages appended since the previous call. A result among them sent cut is
     *   read back by the model, a call per slice (`modelledReads` in @episodic/core/internal): each
     *   read is recorded as a call of its own (cause {@link READ_CAUSE}).
     */
    record({ packed, currentEpisode, currentUser, packNanoseconds, cause = 'step', predictedReused, now, fresh }) {
      const lapsed = cacheTtlMs !== undefined && now !== undefined && previousAt !== undefined && now - previousAt >= cacheTtlMs;
      if (now !== undefined) previousAt = now;
      if (packed === undefined) {
        calls.push({ threw: true, cause, packNanoseconds, tokens: 0, reused: 0, reuse: 0, cost: 0 });
        previous = [];
        return;
      }
      const forms = packed.map((message) => rendered(message, currentEpisode)).filter((form) => form !== null);
      const keysNow = forms.map(keyOf);
      let tokens = prefixTokens + FRAMING.reply;
      let reused = prefixTokens;
      let matching = true;
      let pastReasoning = 0;
      let hiddenPastReasoning = 0;
      let hasCurrentUser = false;
      for (const message of packed) {
        if (message.role !== 'assistant' || !stripsPastReasoning) continue;
        for (const part of message.content) {
          if (part.type !== 'reasoning') continue;
          const episode = episodeOfReasoning.get(part.text);
          if (episode !== undefined && episode < currentEpisode) hiddenPastReasoning += reasoningCost(part.text);
        }
      }
      for (let index = 0; index < forms.length; index += 1) {
        const message = forms[index];
        const size = counter.countMessage(message);
        tokens += size;
        matching &&= keysNow[index] === previous[index];
        if (matching) reused += size;
        if (message.role === 'user' && keysNow[index] === keyOf(currentUser)) hasCurrentUser = true;
        if (message.role !== 'assistant') continue;
        for (const part of message.content) {
          if (part.type !== 'reasoning') continue;
          const episode = episodeOfReasoning.get(part.text);
          // A reasoning text the transcript does not hold was rewritten: count it as past.
          if (episode === undefined || episode < currentEpisode) pastReasoning += reasoningCost(part.text);
        }
      }
      // The previous call is the cache: the first call (or one after a failure) has none.
      const first = calls.length === 0 || calls[calls.length - 1].threw;
      if (first) reused = 0;
      const cached = reused >= MIN_CACHED_PREFIX && !lapsed ? reused : 0;
      const cost = (tokens - cached + cached * PRICE.cachedShare) * PRICE.inputPerToken;
      calls.push({
        threw: false,
        cause: first ? 'first call' : cause,
        packNanoseconds,
        tokens,
        reused,
        reuse: reused / tokens,
        cost,
        pastReasoning,
        hiddenPastReasoning,
        orphans: orphansOf(packed),
        overBudget: tokens > budget,
        empty: packed.length === 0,
        missingCurrentUser: !hasCurrentUser,
        predictionError: predictedReused === undefined ? undefined : Math.abs(predictedReused - reused),
      });
      previous = keysNow;
      if (fresh) for (const read of modelledReads(packed, fresh, counter, readCap)) recordRead(read);
    },

    /** Lowers each call's pack time to the one of another replay of the same calls, where faster (reads pack nothing). */
    keepFastestTimes(times) {
      let index = 0;
      for (const call of calls) {
        if (call.cause === READ_CAUSE) continue;
        call.packNanoseconds = Math.min(call.packNanoseconds, times[index] ?? Number.POSITIVE_INFINITY);
        index += 1;
      }
    },

    /** The per-call figures, in call order (for diagnosis). */
    perCall() {
      return calls;
    },

    /** Aggregates over all recorded calls. */
    summary() {
      // A modelled read packs nothing of its own: pack times are the strategy's calls'.
      const packs = calls.filter((call) => call.cause !== READ_CAUSE);
      const times = packs.map((call) => call.packNanoseconds / 1e6).sort((a, b) => a - b);
      const ok = calls.filter((call) => !call.threw);
      const count = (predicate) => ok.filter(predicate).length;
      return {
        calls: calls.length,
        readCalls: calls.length - packs.length,
        threw: calls.length - ok.length,
        packMedianMs: percentile(times, 0.5),
        packP99Ms: percentile(times, 0.99),
        packTotalMs: times.reduce((sum, time) => sum + time, 0),
        tokensSent: ok.reduce((sum, call) => sum + call.tokens, 0),
        meanReuse: calls.reduce((sum, call) => sum + call.reuse, 0) / calls.length,
        tokenWeightedReuse:
          ok.reduce((sum, call) => sum + call.reused, 0) / ok.reduce((sum, call) => sum + call.tokens, 0),
        callsUnderHalfReuse: calls.filter((call) => call.reuse < 0.5).length,
        cost: ok.reduce((sum, call) => sum + call.cost, 0),
        pastReasoningTokens: ok.reduce((sum, call) => sum + call.pastReasoning, 0),
        hiddenPastReasoningTokens: ok.reduce((sum, call) => sum + call.hiddenPastReasoning, 0),
        orphanCalls: count((call) => call.orphans > 0),
        overBudget: count((call) => call.overBudget),
        empty: count((call) => call.empty),
        missingCurrentUser: count((call) => call.missingCurrentUser),
        byCause: breakdown(calls),
        // Largest gap between measured and predicted reuse (undefined: no prediction made).
        predictionError: ok.reduce(
          (worst, call) => (call.predictionError === undefined ? worst : Math.max(worst ?? 0, call.predictionError)),
          undefined,
        ),
      };
    },
  };
}
