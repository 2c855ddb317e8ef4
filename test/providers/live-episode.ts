/**
 * A tiny two-episode run against a real endpoint for the live tests: the model
 * must call a tool, get its result back with its reasoning, answer, and then
 * answer a second user message with the first episode packed by the real packer.
 */
import {
  generate,
  type Message,
  type ModelAdapter,
  type ModelResponse,
  packContext,
  type ToolSpec,
} from '@episodic/core';

export const liveTools: ToolSpec[] = [
  {
    name: 'get_ci_log',
    description: 'Returns the CI log of a run. Always call it before answering questions about CI.',
    inputSchema: { type: 'object', properties: { run: { type: 'integer' } }, required: ['run'] },
  },
];

/** Runs two episodes and returns every response, in order. */
export async function runLiveEpisodes(adapter: ModelAdapter): Promise<ModelResponse[]> {
  const transcript: Message[] = [
    { role: 'user', content: 'Why did CI run 42 fail? Use the tool, then answer in one sentence.' },
  ];
  const responses: ModelResponse[] = [];
  const step = async () => {
    const packed = packContext({ messages: transcript, budget: 20_000, retention: adapter.profile?.retention });
    const response = await generate(adapter, {
      system: 'You debug CI failures. Be brief.',
      messages: packed.messages,
      tools: liveTools,
      maxOutputTokens: 2_000,
    });
    responses.push(response);
    transcript.push(response.message);
    for (const part of response.message.content) {
      if (part.type === 'tool-call') {
        transcript.push({
          role: 'tool',
          toolCallId: part.id,
          toolName: part.name,
          content: 'test_math: expected 2, got 3',
        });
      }
    }
    return response;
  };
  const runEpisode = async () => {
    // Up to four model calls, until the model stops asking for tools.
    for (let steps = 0; steps < 4; steps += 1) if ((await step()).stopReason !== 'tool-calls') return;
  };
  await runEpisode();
  transcript.push({ role: 'user', content: 'Thanks. Which test was it? Check the log of run 43 too.' });
  await runEpisode();
  return responses;
}
