/**
 * How much of the model's output went to reasoning, per step (assistant message)
 * and per episode. Pure: the agent loop turns the results into events and the
 * session summary.
 */
import { splitEpisodes } from '../../message/episodes.js';
import type { AssistantMessage, Message } from '../../message/message.js';
import type { TokenCounter } from '../../tokens/token-counter.js';

/** Reasoning and visible token counts of some output. */
export interface ReasoningTally {
  /** Tokens of the reasoning parts' text (redacted traces have none to count). */
  reasoningTokens: number;
  /** Tokens of the text parts. Tool calls count as neither. */
  visibleTokens: number;
  /**
   * Share of reasoning: `reasoningTokens / (reasoningTokens + visibleTokens)`, from 0
   * (no reasoning) to 1 (only reasoning); 0 when there is neither. A share rather
   * than reasoning/visible, because tool-call steps often have no visible text.
   */
  ratio: number;
  /** Sum of the provider-reported `usage.reasoningTokens`, when any message has it. */
  reportedReasoningTokens?: number;
}

/** Stats of one step: one assistant message. */
export interface StepReasoningStats extends ReasoningTally {
  /** Position of the assistant message in the input. */
  messageIndex: number;
  /** Index of its episode (as in `splitEpisodes`). */
  episodeIndex: number;
}

/** Stats of one episode, summed over its steps. */
export interface EpisodeReasoningStats extends ReasoningTally {
  episodeIndex: number;
  /** True for messages before the first user message. */
  preamble: boolean;
  /** Number of assistant messages in the episode. */
  steps: number;
}

/** Reasoning and visible tokens of a transcript: per step, per episode and in total. */
export interface ReasoningStats {
  steps: StepReasoningStats[];
  episodes: EpisodeReasoningStats[];
  total: ReasoningTally & { steps: number };
}

function shareOf(reasoningTokens: number, visibleTokens: number): number {
  const all = reasoningTokens + visibleTokens;
  return all === 0 ? 0 : reasoningTokens / all;
}

function tallyMessage(message: AssistantMessage, counter: TokenCounter): ReasoningTally {
  let reasoningTokens = 0;
  let visibleTokens = 0;
  for (const part of message.content) {
    // Cached per part: the packer counted these parts when the message was appended.
    if (part.type === 'reasoning') reasoningTokens += counter.countCached(part, part.text);
    else if (part.type === 'text') visibleTokens += counter.countCached(part, part.text);
  }
  const tally: ReasoningTally = { reasoningTokens, visibleTokens, ratio: shareOf(reasoningTokens, visibleTokens) };
  if (message.usage?.reasoningTokens !== undefined) tally.reportedReasoningTokens = message.usage.reasoningTokens;
  return tally;
}

function sumTallies(tallies: readonly ReasoningTally[]): ReasoningTally {
  let reasoningTokens = 0;
  let visibleTokens = 0;
  let reported: number | undefined;
  for (const tally of tallies) {
    reasoningTokens += tally.reasoningTokens;
    visibleTokens += tally.visibleTokens;
    if (tally.reportedReasoningTokens !== undefined) reported = (reported ?? 0) + tally.reportedReasoningTokens;
  }
  const sum: ReasoningTally = { reasoningTokens, visibleTokens, ratio: shareOf(reasoningTokens, visibleTokens) };
  if (reported !== undefined) sum.reportedReasoningTokens = reported;
  return sum;
}

/**
 * Counts reasoning and visible tokens per assistant message (step), per episode
 * and in total, in raw tokens without message framing (`counter.countCached`, so a
 * part the packer already counted is not tokenized again).
 */
export function reasoningStats(messages: readonly Message[], counter: TokenCounter): ReasoningStats {
  const steps: StepReasoningStats[] = [];
  const episodes: EpisodeReasoningStats[] = [];
  for (const episode of splitEpisodes(messages)) {
    const episodeSteps: StepReasoningStats[] = [];
    episode.messages.forEach((message, offset) => {
      if (message.role !== 'assistant') return;
      const tally = tallyMessage(message, counter);
      episodeSteps.push({ messageIndex: episode.start + offset, episodeIndex: episode.index, ...tally });
    });
    steps.push(...episodeSteps);
    episodes.push({
      episodeIndex: episode.index,
      preamble: episode.preamble,
      steps: episodeSteps.length,
      ...sumTallies(episodeSteps),
    });
  }
  return { steps, episodes, total: { steps: steps.length, ...sumTallies(steps) } };
}
