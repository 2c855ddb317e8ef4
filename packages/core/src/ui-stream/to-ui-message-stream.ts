/**
 * `toUIMessageStream`: a session's events as the AI SDK UI message stream, the
 * protocol `useChat` renders: one assistant message per episode, a step per model
 * call, reasoning and text parts as they stream, tool parts with their input and
 * output, approval requests of tools that need approval (the approval id is the call
 * id `session.approve()` takes), and metadata with the packer's stats and the
 * episode's usage.
 *
 * ```ts
 * const events = session.stream(text, { signal });
 * return createUIMessageStreamResponse(toUIMessageStream(events));
 * ```
 *
 * A model call that is retried keeps what it streamed so far (the UI shows that
 * attempt as its own step); only a failure that ends the episode sends an `error`
 * chunk, which `useChat` shows as the chat's error.
 */
import { EpisodicError } from '../errors/episodic-error.js';
import type { AgentEvent, EpisodeFinishReason } from '../loop/agent-events.js';
import { toolResultText } from '../message/message.js';
import type { PackStats } from '../packing/pack-types.js';
import type { UIFinishReason, UIMessageChunk, UIPackMetadata } from './ui-message-chunk.js';

/** Options of {@link toUIMessageStream}. */
export interface UIMessageStreamOptions {
  /** The assistant message's id; default: the client makes one. */
  messageId?: string;
  /** Send reasoning parts. Default true. */
  sendReasoning?: boolean;
  /**
   * The text the UI shows for an error that ended the episode. Default: a generic
   * sentence with the error's code (`model_rate_limit`, ...), since provider error
   * messages are not written for end users.
   */
  onError?: (error: Error) => string;
}

const FINISH_REASONS: Readonly<Record<EpisodeFinishReason, UIFinishReason>> = {
  done: 'stop',
  'stop-condition': 'tool-calls',
  error: 'error',
  aborted: 'other',
  // The step ended with tool calls that wait for a decision, as the AI SDK's own approvals end it.
  paused: 'tool-calls',
};

/** The default error text: no provider wording, only the code to look up. */
export function defaultErrorText(error: Error): string {
  return EpisodicError.isInstance(error)
    ? `The agent stopped with an error (${error.code}).`
    : 'The agent stopped with an error.';
}

/** Maps events to chunks, one event at a time. */
export class UIMessageChunkMapper {
  private open: { type: 'text' | 'reasoning'; id: string } | undefined;
  private stepOpen = false;
  private parts = 0;
  private retries = 0;
  private sessionId: string | undefined;

  constructor(private readonly options: UIMessageStreamOptions = {}) {}

  /** The chunks for one event (often none or one). */
  map(event: AgentEvent): UIMessageChunk[] {
    switch (event.type) {
      case 'episode-start': {
        this.sessionId = event.sessionId;
        const metadata = { sessionId: event.sessionId, model: event.model };
        const id = this.options.messageId;
        return [{ type: 'start', ...(id === undefined ? {} : { messageId: id }), messageMetadata: metadata }];
      }
      case 'context-packed': {
        const start: UIMessageChunk[] = this.stepOpen ? [] : [{ type: 'start-step' }];
        this.stepOpen = true;
        return [...start, { type: 'message-metadata', messageMetadata: { pack: packMetadata(event.step, event.stats) } }];
      }
      case 'reasoning-delta':
        if (this.options.sendReasoning === false) return [];
        return this.delta('reasoning', event.text);
      case 'text-delta':
        return this.delta('text', event.text);
      case 'tool-call':
        return [
          ...this.closePart(),
          { type: 'tool-input-available', toolCallId: event.call.id, toolName: event.call.name, input: event.call.args },
        ];
      case 'approval-requested': {
        // A sub-agent's call (through an agent tool) is no tool part of this message.
        const { callId, sessionId } = event.request;
        return sessionId === this.sessionId ? [{ type: 'tool-approval-request', approvalId: callId, toolCallId: callId }] : [];
      }
      case 'tool-result': {
        const { toolCallId, content, isError } = event.result;
        return isError
          ? [{ type: 'tool-output-error', toolCallId, errorText: toolResultText(event.result) }]
          : [{ type: 'tool-output-available', toolCallId, output: content }];
      }
      case 'step-finish':
        return this.closeStep();
      case 'error':
        return this.error(event.error, event.willRetry);
      case 'episode-finish':
        return this.finish(event);
      default:
        return [];
    }
  }

  private delta(type: 'text' | 'reasoning', delta: string): UIMessageChunk[] {
    const chunks: UIMessageChunk[] = [];
    if (this.open?.type !== type) {
      chunks.push(...this.closePart());
      this.open = { type, id: `${type}-${this.parts++}` };
      chunks.push({ type: `${type}-start`, id: this.open.id });
    }
    chunks.push({ type: `${type}-delta`, id: this.open.id, delta });
    return chunks;
  }

  private closePart(): UIMessageChunk[] {
    const open = this.open;
    this.open = undefined;
    return open ? [{ type: `${open.type}-end`, id: open.id }] : [];
  }

  private closeStep(): UIMessageChunk[] {
    const chunks = this.closePart();
    if (this.stepOpen) chunks.push({ type: 'finish-step' });
    this.stepOpen = false;
    return chunks;
  }

  private error(error: Error, willRetry: boolean): UIMessageChunk[] {
    const chunks = this.closeStep();
    if (willRetry) {
      this.retries += 1;
      return [...chunks, { type: 'message-metadata', messageMetadata: { retries: this.retries } }];
    }
    return [...chunks, { type: 'error', errorText: (this.options.onError ?? defaultErrorText)(error) }];
  }

  private finish(event: Extract<AgentEvent, { type: 'episode-finish' }>): UIMessageChunk[] {
    const { usage, reason } = event;
    const chunks = this.closeStep();
    if (reason === 'aborted') chunks.push({ type: 'abort', reason: 'The run was aborted.' });
    chunks.push({
      type: 'finish',
      finishReason: FINISH_REASONS[reason],
      messageMetadata: {
        finishReason: reason,
        usage: {
          modelCalls: usage.calls,
          inputTokens: usage.inputTokens,
          cachedInputTokens: usage.cachedInputTokens,
          outputTokens: usage.outputTokens,
          reasoningTokens: usage.reasoningTokens,
          ...(usage.costUsd === undefined ? {} : { costUsd: usage.costUsd }),
        },
      },
    });
    return chunks;
  }
}

function packMetadata(step: number, stats: PackStats): UIPackMetadata {
  return {
    step,
    budget: stats.budget,
    tokens: { ...stats.tokens },
    evictedEpisodes: stats.evictedEpisodes,
    reasoningKeptParts: stats.reasoning.keptParts,
    reasoningDroppedParts: stats.reasoning.droppedParts,
    truncatedToolResults: stats.truncatedToolResults,
    predictedCachedTokens: stats.prefixReuseTokens,
  };
}

/**
 * The UI message stream of a session's events (`session.stream(...)` or
 * `session.resumeStream()`). Cancelling the stream stops reading the events; abort
 * the run's `signal` to stop the run itself. An error thrown by the events (a busy
 * session) becomes an `error` chunk.
 */
export function toUIMessageStream(
  events: AsyncIterable<AgentEvent>,
  options: UIMessageStreamOptions = {},
): ReadableStream<UIMessageChunk> {
  const mapper = new UIMessageChunkMapper(options);
  const iterator = events[Symbol.asyncIterator]();
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done) return controller.close();
          const chunks = mapper.map(next.value);
          for (const chunk of chunks) controller.enqueue(chunk);
          if (chunks.length > 0) return;
        }
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        controller.enqueue({ type: 'error', errorText: (options.onError ?? defaultErrorText)(failure) });
        controller.close();
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
