/**
 * Test support for `episodic budget`: recorded-looking sessions of a chosen shape
 * (episodes of tool steps with reasoning and tool results of a chosen size), with or
 * without provider usage on the assistant messages. Not part of the built package.
 */
import type { AssistantMessage, Message, ModelRef, ToolMessage, Usage } from '@episodic/core';

const vocabulary = [
  'build',
  'failed',
  'parser',
  'timeout',
  'nested',
  'array',
  'stack',
  'frame',
  'retry',
  'cache',
  'module',
  'assert',
  'queue',
  'worker',
  'flaky',
  'commit',
];

/** `count` words from a small seeded generator: the same seed gives the same text. */
export function seededWords(count: number, seed: number): string {
  let state = seed >>> 0 || 1;
  const out: string[] = [];
  for (let index = 0; index < count; index += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out.push(`${vocabulary[state % vocabulary.length]}${(state >>> 8) % 97}`);
  }
  return out.join(' ');
}

/** The shape of a generated session. */
export interface BudgetSessionOptions {
  episodes: number;
  /** Tool steps per episode (each followed by its result), before the final answer. */
  steps: number;
  /** Words of each tool result. */
  resultWords: number;
  /** Words of each reasoning part. Default 30. */
  reasoningWords?: number;
  /** A leading system line. */
  system?: string;
  /** The model on every assistant message; null for none. Default anthropic/claude-sonnet-4-5. */
  model?: ModelRef | null;
  /** Usage recorded for the call with this 0-based number, if any. */
  usage?: (call: number) => Usage | undefined;
}

/** The default model of generated sessions. */
export const sessionModel: ModelRef = { provider: 'anthropic', id: 'claude-sonnet-4-5' };

/** A session: episodes of `steps` tool steps and a final answer, every step with reasoning. */
export function budgetSession(options: BudgetSessionOptions): Message[] {
  const messages: Message[] = options.system ? [{ role: 'system', content: options.system }] : [];
  const model = options.model === undefined ? sessionModel : options.model;
  let calls = 0;
  const assistant = (content: AssistantMessage['content']): AssistantMessage => {
    const usage = options.usage?.(calls);
    calls += 1;
    return { role: 'assistant', content, ...(model ? { model } : {}), ...(usage ? { usage } : {}) };
  };
  const thought = (seed: number) => ({
    type: 'reasoning' as const,
    text: seededWords(options.reasoningWords ?? 30, seed),
  });
  for (let episode = 0; episode < options.episodes; episode += 1) {
    messages.push({ role: 'user', content: `Question ${episode + 1}: ${seededWords(12, episode * 7919 + 1)}` });
    for (let step = 0; step < options.steps; step += 1) {
      const seed = episode * 1000 + step + 3;
      const id = `call_${episode}_${step}`;
      messages.push(assistant([thought(seed), { type: 'tool-call', id, name: 'read_log', args: { episode, step } }]));
      const result: ToolMessage = {
        role: 'tool',
        toolCallId: id,
        toolName: 'read_log',
        content: seededWords(options.resultWords, seed * 31),
      };
      messages.push(result);
    }
    messages.push(assistant([thought(episode * 1000 + 999), { type: 'text', text: seededWords(20, episode + 5) }]));
  }
  return messages;
}
