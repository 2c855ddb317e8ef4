/**
 * A scripted AI SDK mock model (`ai/test`) for the tests: each call answers with the
 * script's next step (reasoning, then tool calls or text), through `doGenerate` and
 * `doStream` alike, and records the prompt it was given.
 */
import { MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test';

/** One scripted answer. */
export interface ScriptedStep {
  reasoning?: { text: string; providerMetadata?: Record<string, Record<string, unknown>> }[];
  toolCalls?: { id: string; name: string; input: unknown; providerMetadata?: Record<string, Record<string, unknown>> }[];
  text?: string;
  textMetadata?: Record<string, Record<string, unknown>>;
}

const usage = (input: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 10, reasoning: 10 },
});

/** The content parts of a step, as `doGenerate` returns them. */
function contentOf(step: ScriptedStep) {
  return [
    ...(step.reasoning ?? []).map((part) => ({ type: 'reasoning' as const, text: part.text, ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) })),
    ...(step.text === undefined ? [] : [{ type: 'text' as const, text: step.text, ...(step.textMetadata ? { providerMetadata: step.textMetadata } : {}) }]),
    ...(step.toolCalls ?? []).map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.input),
      ...(call.providerMetadata ? { providerMetadata: call.providerMetadata } : {}),
    })),
  ];
}

/** The stream parts of a step, as `doStream` returns them. */
function streamOf(step: ScriptedStep, input: number) {
  const parts: Record<string, unknown>[] = [{ type: 'stream-start', warnings: [] }];
  (step.reasoning ?? []).forEach((part, index) => {
    parts.push({ type: 'reasoning-start', id: `r${index}` });
    parts.push({ type: 'reasoning-delta', id: `r${index}`, delta: part.text });
    parts.push({ type: 'reasoning-end', id: `r${index}`, ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) });
  });
  if (step.text !== undefined) {
    parts.push({ type: 'text-start', id: 't0' });
    parts.push({ type: 'text-delta', id: 't0', delta: step.text });
    parts.push({ type: 'text-end', id: 't0', ...(step.textMetadata ? { providerMetadata: step.textMetadata } : {}) });
  }
  for (const call of step.toolCalls ?? []) {
    parts.push({ type: 'tool-input-start', id: call.id, toolName: call.name });
    parts.push({ type: 'tool-input-delta', id: call.id, delta: JSON.stringify(call.input) });
    parts.push({ type: 'tool-input-end', id: call.id });
    parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input), ...(call.providerMetadata ? { providerMetadata: call.providerMetadata } : {}) });
  }
  const finish = step.toolCalls?.length ? 'tool-calls' : 'stop';
  parts.push({ type: 'finish', finishReason: { unified: finish, raw: finish }, usage: usage(input) });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** A mock model answering `script(callIndex)`, recording every prompt it got. */
export function scriptedAISDKModel(
  script: (call: number) => ScriptedStep,
  options: { provider?: string; modelId?: string; version?: 'v3' | 'v4'; inputTokens?: number } = {},
) {
  const prompts: unknown[][] = [];
  /** The tool names of every call, in order. */
  const tools: string[][] = [];
  let calls = 0;
  // Reported input: the given count, else about a token per four characters of the prompt's JSON.
  const inputOf = (prompt: unknown[]) => options.inputTokens ?? Math.ceil(JSON.stringify(prompt).length / 4);
  const next = (prompt: unknown[], offered: { name?: string }[] = []) => {
    prompts.push(structuredClone(prompt));
    tools.push(offered.map((tool) => String(tool.name)));
    const step = script(calls);
    calls += 1;
    return step;
  };
  const settings = {
    provider: options.provider ?? 'anthropic.messages',
    modelId: options.modelId ?? 'claude-sonnet-4-5',
    doGenerate: async ({ prompt, tools: offered }: { prompt: unknown[]; tools?: { name?: string }[] }) => {
      const step = next(prompt, offered);
      const finish = step.toolCalls?.length ? 'tool-calls' : 'stop';
      return { content: contentOf(step), finishReason: { unified: finish, raw: finish }, usage: usage(inputOf(prompt)), warnings: [] };
    },
    doStream: async ({ prompt, tools: offered }: { prompt: unknown[]; tools?: { name?: string }[] }) => ({
      stream: streamOf(next(prompt, offered), inputOf(prompt)),
    }),
  };
  const model = options.version === 'v3'
    ? new MockLanguageModelV3(settings as unknown as ConstructorParameters<typeof MockLanguageModelV3>[0])
    : new MockLanguageModelV4(settings as unknown as ConstructorParameters<typeof MockLanguageModelV4>[0]);
  return { model, prompts, tools };
}
