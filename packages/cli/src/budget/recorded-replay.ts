/**
 * The session replayed as it was recorded, to check the replay against what the
 * provider reported: each call with usage sends everything before it (every
 * reasoning part, every tool result whole, nothing evicted), as the recording agents
 * do, and is counted as the provider bills it. A recorded compaction (the agent put a
 * summary in place of its history) starts a new segment: from there a call sends the
 * summary, the messages the agent kept and what follows.
 */
import {
  type Message,
  type TokenCounter,
  type ToolSpec,
  type Usage,
} from '@episodic/core';
import { type PackState, packContext } from '@episodic/core/packing';
import { BilledView, type BilledRequest } from './billed-view.js';
import { requestTime } from './call-time.js';
import { unlimitedBudget } from './replay.js';

/** One recorded call, counted locally. */
export interface RecordedCall {
  /** 0-based number among the replayed calls (as in every run). */
  call: number;
  /** 1-based transcript line of the assistant message. */
  line: number;
  /** 0 before the first recorded compaction, then 1, 2, ... */
  segment: number;
  /** `provider/id` of the model that made the call, or `unknown`. */
  model: string;
  /** When the call was made (milliseconds), when the recording says. */
  requestTime?: number;
  /** Local tokens of the request as billed (system, tools, messages, reply priming), hidden reasoning excluded. */
  localTokens: number;
  /** Reasoning billed at its recorded size beyond its summary text (provider tokens, not scaled). */
  hiddenTokens: number;
  /** Of `localTokens`, those the request shares with the previous call of the segment. */
  sharedLocalTokens: number;
  /** Of `hiddenTokens`, those in the shared part. */
  sharedHiddenTokens: number;
  reported: Usage;
}

/** What the replay-as-recorded needs. */
export interface RecordedReplaySettings {
  /** The whole transcript. */
  messages: readonly Message[];
  system?: string | undefined;
  tools?: readonly ToolSpec[] | undefined;
  /** A counter without calibration: the fit scales its counts. */
  counter: TokenCounter;
  billing: BilledView;
}

/** Replays every call with usage as it was sent. */
export function replayAsRecorded(settings: RecordedReplaySettings): RecordedCall[] {
  const { messages } = settings;
  const out: RecordedCall[] = [];
  let segmentStart = 0;
  let segment = 0;
  let state: PackState | undefined;
  let previous: BilledRequest | undefined;
  let call = 0;
  let hasContext = false;
  for (const [index, message] of messages.entries()) {
    if (message.role === 'user' && message.compaction) {
      segmentStart = Math.max(0, index - message.compaction.keptMessages);
      segment += 1;
      state = undefined;
      previous = undefined;
    }
    const hadContext = hasContext;
    if (message.role !== 'system') hasContext = true;
    if (message.role !== 'assistant' || !hadContext) continue;
    const number = call;
    call += 1;
    const context = messages.slice(segmentStart, index);
    if (!message.usage || !context.some((found) => found.role !== 'system')) continue;
    const packed = packContext({
      messages: context,
      system: settings.system,
      tools: settings.tools,
      budget: unlimitedBudget,
      retention: 'all',
      toolResultCap: Number.POSITIVE_INFINITY,
      currentToolResultCap: Number.POSITIVE_INFINITY,
      tokenizer: settings.counter,
      state,
    });
    state = packed.state;
    const request = settings.billing.of(packed.messages);
    const { tokens } = packed.stats;
    const outside = tokens.total - tokens.summary - tokens.history - tokens.currentEpisode;
    const shared = BilledView.shared(previous, request);
    out.push({
      call: number,
      line: index + 1,
      segment,
      model: message.model ? `${message.model.provider}/${message.model.id}` : 'unknown',
      ...timeField(requestTime(messages, index)),
      localTokens: outside + request.messageTokens - request.hiddenReasoningTokens,
      hiddenTokens: request.hiddenReasoningTokens,
      sharedLocalTokens: previous ? tokens.system + tokens.tools + shared.tokens - shared.hidden : 0,
      sharedHiddenTokens: shared.hidden,
      reported: message.usage,
    });
    previous = request;
  }
  return out;
}

function timeField(time: number | undefined): { requestTime?: number } {
  return time === undefined ? {} : { requestTime: time };
}
