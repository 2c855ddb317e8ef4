/**
 * A small episode runner for the conformance suite: pack (episode retention,
 * whole-episode eviction), stream the model call, run tools, append, repeat.
 * It follows the agent loop's contract (retry a retryable error once, repack
 * once on context overflow, leave no dangling tool call on abort) so adapters
 * are exercised the way the loop drives them.
 */
import {
  type AssistantMessage,
  generate,
  type Message,
  type ModelAdapter,
  ModelError,
  type Retention,
  splitEpisodes,
  type ToolSpec,
  type Usage,
} from '@episodic/core';

/** A test tool: returns text, or throws to produce an error result. */
export type TestTool = (args: Record<string, unknown>) => Promise<string> | string;

export const testToolSpecs: ToolSpec[] = [
  {
    name: 'get_ci_log',
    description: 'Returns the CI log of a run.',
    inputSchema: {
      type: 'object',
      properties: { run: { type: 'integer', description: 'Run number' } },
      required: ['run'],
      additionalProperties: false,
    },
  },
  {
    name: 'read_file',
    description: 'Reads a file of the repository.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'failing_tool',
    description: 'Always fails.',
    inputSchema: { type: 'object', properties: {} },
  },
];

export const testTools: Record<string, TestTool> = {
  get_ci_log: (args) => `run ${String(args.run)}: 1 test failed (expected 2, got 3)`,
  read_file: (args) => `contents of ${String(args.path)}`,
  failing_tool: () => {
    throw new Error('disk on fire');
  },
};

export interface DriverSession {
  messages: Message[];
  system: string;
  retention: Retention;
  /** Leading episodes evicted by repacking (only grows). */
  evicted: number;
  /** Model errors seen (retried or not), for assertions. */
  errors: ModelError[];
  usage: Usage[];
}

export function newSession(retention: Retention = 'episode'): DriverSession {
  return { messages: [], system: 'You debug CI failures.', retention, evicted: 0, errors: [], usage: [] };
}

/** Packs like the packer's contract: evicted episodes gone, past reasoning dropped under `episode`. */
export function packMessages(session: DriverSession): Message[] {
  const episodes = splitEpisodes(session.messages);
  const kept = episodes.slice(Math.min(session.evicted, episodes.length - 1));
  return kept.flatMap((episode, index) => {
    const current = index === kept.length - 1;
    if (current || session.retention === 'all') return episode.messages;
    return episode.messages.flatMap((message): Message[] => {
      if (message.role !== 'assistant') return [message];
      const content = message.content.filter((part) => part.type !== 'reasoning');
      return content.length > 0 ? [{ ...message, content }] : [];
    });
  });
}

export interface EpisodeOptions {
  /** The adapter for each step (model switch mid-episode). */
  adapterFor: (step: number) => ModelAdapter;
  signal?: AbortSignal;
  maxSteps?: number;
}

/** Runs one episode: the user message, then model steps and tools until a reply without tool calls. */
export async function runEpisode(session: DriverSession, userText: string, options: EpisodeOptions) {
  session.messages.push({ role: 'user', content: userText });
  let last: AssistantMessage | undefined;
  for (let step = 0; step < (options.maxSteps ?? 8); step += 1) {
    const adapter = options.adapterFor(step);
    const response = await callWithRecovery(session, adapter, options.signal);
    last = response.message;
    session.messages.push(response.message);
    session.usage.push(response.usage);
    const calls = response.message.content.filter((part) => part.type === 'tool-call');
    if (calls.length === 0) return last;
    for (const call of calls) {
      const tool = testTools[call.name];
      try {
        if (!tool) throw new Error(`unknown tool ${call.name}`);
        const content = await tool((call.args ?? {}) as Record<string, unknown>);
        session.messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content });
      } catch (error) {
        const content = `Error: ${(error as Error).message}`;
        session.messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content, isError: true });
      }
    }
  }
  return last;
}

async function callWithRecovery(session: DriverSession, adapter: ModelAdapter, signal?: AbortSignal) {
  let retried = false;
  let repacked = false;
  for (;;) {
    try {
      const request = {
        system: session.system,
        messages: packMessages(session),
        tools: testToolSpecs,
        maxOutputTokens: 4096,
      };
      return await generate(adapter, request, { signal });
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      session.errors.push(error);
      if (error.retryable && !retried) {
        retried = true;
        continue;
      }
      if (error.kind === 'context-overflow' && !repacked) {
        repacked = true;
        session.evicted += 1;
        continue;
      }
      throw error;
    }
  }
}
