/**
 * The compaction request of an on-demand compaction (Anthropic
 * https://platform.claude.com/docs/en/build-with-claude/compaction-keep-recent-turns, read
 * 2026-12-05): where to cut the transcript (all but the last kept episodes) and the
 * request that asks the model to summarize the messages before the cut.
 *
 * The cut is a user boundary: a person-typed user message whose previous message (as
 * sent) is a finished assistant answer. So no tool call is left open across it, the first
 * kept message has another role than the last summarized one (the API would merge them and
 * the kept thinking would no longer match), and the kept turns follow the summarized
 * messages directly.
 */
import { isEpisodeStart, type Message, type ModelRef, toolCallsOf, assistantText } from '../../message/message.js';
import type { ModelRequest } from '../../model/model-adapter.js';
import { compactionReader, messagesAfterCompaction } from '../../packing/compaction-cut.js';
import { holdsOnDemandCompaction, onDemandPartOf } from '../../packing/on-demand-cut.js';
import { packContext } from '../../packing/pack-context.js';
import { stripForeignReasoning } from '../../reasoning/handoff/foreign-reasoning.js';
import type { ModelCallSettings } from '../model-call.js';

/**
 * How many of the transcript's first messages the model's latest successful on-demand
 * compaction stands for (0 without one): a new compaction must summarize more than that.
 */
export function coveredMessages(messages: readonly Message[], model: ModelRef): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const part = onDemandPartOf(messages[index] as Message);
    if (part && part.failed !== true && part.providerData?.provider === model.provider && part.providerData?.model === model.id)
      return part.summarizedMessages;
  }
  return 0;
}

/** The message before `index` as sent: stored on-demand compactions and summary lines are not in that place on the wire. */
function previousSent(messages: readonly Message[], index: number): Message | undefined {
  for (let at = index - 1; at >= 0; at -= 1) {
    const message = messages[at] as Message;
    if (message.role === 'summary' || holdsOnDemandCompaction(message)) continue;
    return message;
  }
  return undefined;
}

/** True when a cut at `index` follows a finished answer: an assistant message with visible text and no tool calls. */
function followsAnswer(messages: readonly Message[], index: number): boolean {
  const previous = previousSent(messages, index);
  return previous?.role === 'assistant' && toolCallsOf(previous).length === 0 && assistantText(previous).trim().length > 0;
}

/**
 * Where to cut for a compaction that keeps the last `keepTurns` episodes: the transcript
 * index of the first kept message (the transcript's length when none is kept), or
 * undefined when no cut summarizes anything new. With fewer finished episodes than
 * `keepTurns` + 1 there is nothing to summarize yet; where the boundary does not follow an
 * answer, the cut moves earlier (more is kept), never later.
 */
export function chooseCut(messages: readonly Message[], keepTurns: number, model: ModelRef): number | undefined {
  const covered = coveredMessages(messages, model);
  const starts: number[] = [];
  for (let index = covered; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    if (isEpisodeStart(message)) starts.push(index);
  }
  const candidates = keepTurns === 0 ? [...starts, messages.length] : starts;
  for (let position = candidates.length - Math.max(1, keepTurns); position >= 0; position -= 1) {
    const cut = candidates[position] as number;
    // The summarized part must hold an episode the previous compaction did not.
    if (cut <= covered || !starts.some((start) => start < cut)) return undefined;
    if (followsAnswer(messages, cut)) return cut;
  }
  return undefined;
}

/**
 * The compaction request for the messages before `cut`: as a call at that point would
 * send them (an earlier compaction first in their place, other models' reasoning left
 * out, packed to the budget), with the same system prompt and tools as the conversation's
 * calls (the summarizer reads them, and the kept thinking stays valid only if they do not
 * change), and no output format or native context management (the API refuses them on a
 * compaction request). With kept turns, the summarized messages go as the conversation's
 * calls have sent them since those episodes ended (see the body).
 */
export function compactionRequest(
  settings: ModelCallSettings,
  messages: readonly Message[],
  cut: number,
  maxOutputTokens: number,
): ModelRequest {
  const model = settings.model.model;
  // The transcript as a call sends it, up to the cut: an earlier block (stored after the
  // messages it replaced, maybe after the cut) still goes first, so a compaction again
  // summarizes the old summary and what follows it.
  const kept = new Set(messages.slice(cut));
  const { messages: view } = messagesAfterCompaction(messages, compactionReader(settings.model));
  const older = view.filter((message) => !kept.has(message) || holdsOnDemandCompaction(message));
  const own = stripForeignReasoning(older, model).messages;
  // With kept turns the summarized episodes are past ones, as in the conversation's calls since:
  // packed before the first kept user message, they lose what the episode rule dropped there
  // (earlier turns' thinking), so the request repeats the cached prefix instead of writing it
  // anew and billing that thinking again. The opener is then taken off.
  const next = messages[cut];
  const opener = next !== undefined && isEpisodeStart(next) ? [next] : [];
  const packed = packContext({
    ...settings.pack,
    messages: [...own, ...opener],
    system: settings.system,
    tools: settings.toolSpecs,
    budget: settings.budget,
    retention: settings.retention,
    tokenizer: settings.tokenizer,
  });
  const sent = packed.messages.slice(0, packed.messages.length - opener.length);
  const breakpoints = packed.stats.cacheBreakpoints;
  // The breakpoint that sat on the opener moves to the end of what is sent.
  const before = breakpoints.messages.filter((index) => index < sent.length - 1);
  const marks = [...new Set([...before, sent.length - 1])].filter((index) => index >= 0);
  return {
    system: packed.system,
    messages: sent,
    cacheBreakpoints: { ...breakpoints, messages: marks },
    ...(settings.toolSpecs.length > 0 ? { tools: settings.toolSpecs } : {}),
    maxOutputTokens,
    ...(settings.providerOptions ? { providerOptions: settings.providerOptions } : {}),
  };
}
