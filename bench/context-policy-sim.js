/**
 * Replays a session call by call under one context policy for one provider profile,
 * and prices it. A model of the providers' documented behaviour, not of their
 * internals:
 *
 * - Prompt cache: a call reuses the messages at its start that are identical to the
 *   previous call's (message granularity), with system and tools. OpenAI caches a
 *   reused prefix of at least 1,024 tokens, in 128-token steps, reads at the cached
 *   price and writes nothing; Anthropic reads at its cache-read price from its minimum
 *   cacheable prefix and writes the rest at the 5-minute write price (the packer's last
 *   breakpoint sits at the end of each request).
 * - Server-side compaction (the `native` and `hybrid` policies): when a call's input
 *   passes the threshold, the provider runs one more pass over that input (billed as
 *   the call is, cache included) writing a summary of 1% of it (at least 500, at most
 *   4,000 tokens: the Anthropic recording in vercel/ai compacted 60,385 tokens into
 *   522), and answers from system + tools + summary. From then on the call's message
 *   carries a compaction part and `messagesAfterCompaction` (the code the agent loop
 *   uses) cuts the history before it.
 * - Past reasoning sent back is billed (Anthropic Sonnet 4.6 and GPT-5.6 keep it by
 *   default: `pastReasoning: 'billed'`, `reasoning.context` defaults to `all_turns`).
 * Output tokens of the answers are the same under every policy and left out.
 */
import { messagesAfterCompaction, packContext } from '@episodic/core';

/** Summary size of a compaction of `tokens` input tokens (see above). */
export function summaryTokens(tokens) {
  return Math.max(500, Math.min(4000, Math.round(tokens * 0.01)));
}

function cachedTokens(profile, reused) {
  if (profile.cache === 'openai') return reused < 1024 ? 0 : Math.floor(reused / 128) * 128;
  return reused < profile.minCacheable ? 0 : reused;
}

function price(profile, input, cached) {
  const { pricing } = profile;
  const fresh = input - cached;
  const write = profile.cache === 'anthropic' ? fresh * ((pricing.cacheWrite ?? pricing.input) - pricing.input) : 0;
  return (fresh * pricing.input + cached * pricing.cachedInput + write) / 1e6;
}

/**
 * @param {{ messages: import('@episodic/core').Message[], system?: string }} session
 * @param {{ name: string, model: { provider: string, id: string }, budget: number, cache: 'openai' | 'anthropic',
 *   minCacheable: number, pricing: import('@episodic/core').Pricing, compactAt: number }} profile
 * @param {'episodic' | 'native' | 'hybrid'} policy
 * @param {import('@episodic/core').TokenCounter} counter
 */
export function replayPolicy(session, profile, policy, counter) {
  const messages = session.messages.map((message) => ({ ...message }));
  const budget = profile.budget;
  const native = policy === 'native';
  const compacts = policy !== 'episodic';
  const fixed = (session.system ? counter.countSystem(session.system) : 0);
  const totals = { calls: 0, input: 0, cached: 0, cost: 0, compactions: 0, evictions: 0, skipped: 0 };
  let state;
  let previous = [];
  for (let index = 0; index < messages.length; index += 1) {
    const produced = messages[index];
    if (produced.role !== 'assistant' || index === 0) continue;
    const { messages: view } = messagesAfterCompaction(messages.slice(0, index), profile.model);
    let packed;
    try {
      packed = packContext({
        messages: view,
        system: session.system,
        budget,
        tokenizer: counter,
        retention: native ? 'all' : 'episode',
        state,
        ...(native ? { toolResultCap: budget, currentToolResultCap: budget } : {}),
      });
    } catch {
      totals.skipped += 1;
      continue;
    }
    state = packed.state;
    if (packed.stats.evictedNow) totals.evictions += 1;
    const sent = packed.messages.map((message) => JSON.stringify(message));
    let same = 0;
    while (same < sent.length && same < previous.length && sent[same] === previous[same]) same += 1;
    const reused = fixed + packed.messages.slice(0, same).reduce((sum, message) => sum + counter.countMessage(message), 0);
    const input = packed.stats.tokens.total;
    const cached = Math.min(input, cachedTokens(profile, reused));
    totals.calls += 1;
    totals.input += input;
    totals.cached += cached;
    totals.cost += price(profile, input, cached);
    previous = sent;
    if (compacts && input > profile.compactAt) {
      const summary = summaryTokens(input);
      totals.compactions += 1;
      // The answering pass reads system + summary afresh; the summary is written as output.
      totals.input += fixed + summary;
      totals.cost += price(profile, fixed + summary, 0) + (summary * profile.pricing.output) / 1e6;
      const part = {
        type: 'compaction',
        tokens: summary,
        text: `summary of ${input} tokens`,
        providerData: { provider: profile.model.provider, model: profile.model.id, block: { type: 'compaction' } },
      };
      messages[index] = { ...produced, content: [part, ...produced.content] };
      previous = [];
    }
  }
  return totals;
}
