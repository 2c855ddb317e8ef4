/**
 * The provider-neutral face of every loopback wire server: tests script what the
 * "model" answers in neutral terms, and inspect what each request carried back
 * in neutral terms. Each provider's server translates both ways and enforces
 * that provider's validation rules.
 */

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** One scripted model answer. */
export interface ScriptedReply {
  type: 'reply';
  /** Reasoning traces, each one block/item; the server signs them. */
  reasoning?: string[];
  /** Also emit one redacted reasoning block (providers that have them). */
  redactedReasoning?: boolean;
  text?: string;
  toolCalls?: ScriptedToolCall[];
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; reasoning?: number };
}

/** What a scripted request gets back. */
export type ScriptedResponse =
  | ScriptedReply
  /** An HTTP error with the provider's status code and body for that status. */
  | { type: 'error'; status: 429 | 500 | 503 | 529; retryAfterSeconds?: number }
  /** The provider's context-length error. */
  | { type: 'context-overflow' }
  /** Streams `text` and then holds the stream open until the client goes away. */
  | { type: 'stall'; text: string };

/** A structured-answer format a request carried, as the conformance suite sees it. */
export interface OutputFormatView {
  /** The format's name, where the wire API has one. */
  name?: string;
  /** OpenAI's strict flag. */
  strict?: boolean;
  schema: unknown;
}

/** A request as the conformance suite sees it, independent of the wire format. */
export interface RequestView {
  model: string;
  /**
   * Scripted reasoning texts this request carried back with their opaque data
   * intact (signature verified by the server), in request order. Redacted
   * blocks appear as `[redacted]`.
   */
  echoedReasoning: string[];
  /** Reasoning items of any kind in the request (valid or not). */
  reasoningItems: number;
  /** Tool-call ids in assistant messages, in order. */
  toolCallIds: string[];
  /** Tool-result ids, in order. */
  toolResultIds: string[];
  /** Ids of tool results flagged as errors. */
  toolErrorIds: string[];
  /** Texts of real user messages (not tool results), in order. */
  userTexts: string[];
  /** Messages (wire turns) in the request. */
  messageCount: number;
  /** Cache breakpoints placed (Anthropic); 0 where the provider caches implicitly. */
  cacheBreakpoints: number;
  /** The structured-answer format the request carried (native structured output), if any. */
  outputFormat?: OutputFormatView;
}

/** One request the server received. */
export interface RecordedRequest {
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** The status the server answered with. */
  status: number;
  /** The provider error message when the server rejected the request. */
  error?: string;
  /** Undefined for requests that are not model calls (e.g. token counting). */
  view?: RequestView;
  /** Preserved thinking (the Anthropic server): blocks checked, failed and dropped, and whether the last turn lost its thinking. */
  binding?: {
    checkedBlocks: number;
    failedBlocks: number;
    dropped: number;
    lostLastThinking: boolean;
    lastTurnBlocks: number;
    leftOut: string[];
  };
  /** What the provider's own context management did to the request (servers that model it). */
  context?: {
    /** Texts the model read in user messages and tool results after dropping and clearing. */
    seenTexts: string[];
    /** Edits reported back (`applied_edits`). */
    appliedEdits: Record<string, unknown>[];
    /** True when this call compacted. */
    compacted: boolean;
    /** Compaction items/blocks sent back: their content when this server issued them, else `[forged]`. */
    compactionsSent: string[];
  };
}

/** A running scripted wire server. */
export interface ScriptedServer {
  /** Base URL to pass to the SDK client (`baseURL` / `httpOptions.baseUrl`). */
  readonly url: string;
  /** Every request received, in order, including rejected ones. */
  readonly requests: RecordedRequest[];
  /** Queues answers for the next model calls, in order. */
  enqueue(...responses: ScriptedResponse[]): void;
  /** The model calls (requests with a view) received, in order. */
  modelCalls(): RecordedRequest[];
  close(): Promise<void>;
}

/** A queue of scripted answers; an empty queue answers with a plain "ok" reply. */
export class ScriptQueue {
  private readonly queue: ScriptedResponse[] = [];

  push(...responses: ScriptedResponse[]): void {
    this.queue.push(...responses);
  }

  next(): ScriptedResponse {
    return this.queue.shift() ?? { type: 'reply', text: 'ok' };
  }
}

/** JSON with object keys sorted (the servers' own, independent of the code under test). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const record = item as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    );
  });
}
