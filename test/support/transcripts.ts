/**
 * Small builders for realistic transcripts in tests.
 */
import type { AssistantMessage, AssistantPart, Message, ToolMessage, UserMessage } from '@episodic/core';

let counter = 0;

export const words = (count: number, seed = 1): string => {
  const vocabulary = [
    'build',
    'failed',
    'test',
    'timeout',
    'error',
    'stack',
    'frame',
    'line',
    'retry',
    'cache',
    'module',
    'assert',
  ];
  const out: string[] = [];
  let state = seed;
  for (let index = 0; index < count; index += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(vocabulary[state % vocabulary.length] as string);
  }
  return out.join(' ');
};

export const user = (text: string): UserMessage => ({ role: 'user', content: text });

export function assistant(parts: AssistantPart[]): AssistantMessage {
  return { role: 'assistant', content: parts, model: { provider: 'test', id: 'test-model' } };
}

export const reasoning = (text: string): AssistantPart => ({
  type: 'reasoning',
  text,
  signature: `sig-${text.length}`,
});
export const text = (value: string): AssistantPart => ({ type: 'text', text: value });

export function call(name: string, args: unknown = {}, id = `call_${++counter}`): AssistantPart {
  return { type: 'tool-call', id, name, args };
}

export const result = (callPart: AssistantPart, content: string, isError = false): ToolMessage => {
  if (callPart.type !== 'tool-call') throw new Error('result() needs a tool-call part');
  return { role: 'tool', toolCallId: callPart.id, toolName: callPart.name, content, isError };
};

/** One tool step: an assistant message with reasoning and calls, then their results. */
export function step(thought: string, calls: { name: string; result: string }[]): Message[] {
  const parts = calls.map((item) => call(item.name, { q: item.name }));
  const messages: Message[] = [assistant([reasoning(thought), ...parts])];
  parts.forEach((part, index) => {
    messages.push(result(part, calls[index]?.result ?? ''));
  });
  return messages;
}

/** An episode: user message, `steps` tool steps, final answer with reasoning. */
export function episode(question: string, steps: number, resultWords = 40, seed = 1): Message[] {
  const messages: Message[] = [user(question)];
  for (let index = 0; index < steps; index += 1) {
    messages.push(
      ...step(`thinking about step ${index} ${words(20, seed + index)}`, [
        { name: 'get_log', result: words(resultWords, seed * 31 + index) },
      ]),
    );
  }
  messages.push(assistant([reasoning(`final thought ${words(10, seed)}`), text(`answer to ${question}`)]));
  return messages;
}
