/**
 * Chat Completions message fields the adapter does not read are kept verbatim and go
 * back on their message to the host and model that produced them; every other model
 * gets them left out with one warning. The deltas are shaped as OpenRouter streamed
 * `annotations` (recorded in pydantic-ai's test_openrouter_web_search_annotations_stream
 * cassette: one `url_citation` per delta, with `content: ""`), plus a field no host
 * sends today. The loopback host refuses a follow-up whose assistant message lacks
 * the fields it answered with, so a dropped field fails the call, not just an assertion.
 */
import type { AssistantMessage, Message, ModelStreamEvent } from '@episodic/core';
import { createOpenAICompatibleAdapter } from '@episodic/providers/openai-compatible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackServer, readJsonBody, sendJson, startLoopbackServer, startSse, writeSseEvent } from '../servers/sse.js';

type Json = Record<string, unknown>;

const model = 'deepseek/deepseek-chat';
const citation = (url: string, title: string) => ({
  type: 'url_citation',
  url_citation: { url, title, start_index: 0, end_index: 0, content: `Page text of ${title}` },
});
const annotations = [citation('https://example.org/a', 'A'), citation('https://example.org/b', 'B')];
const hostTrace = { route: 'eu-1', attempt: 2 };

/**
 * A host that streams `annotations` (a delta each) and `x_host_trace` on its first
 * answer, and refuses (400) any later request whose assistant message does not carry
 * both back exactly; answers a plain "ok" otherwise.
 */
async function startAnnotatingHost(): Promise<LoopbackServer & { bodies: Json[] }> {
  const bodies: Json[] = [];
  const server = await startLoopbackServer(async (request, response) => {
    const body = (await readJsonBody(request)) as Json;
    bodies.push(body);
    const assistant = ((body.messages ?? []) as Json[]).find((message) => message.role === 'assistant');
    const same = (value: unknown, expected: unknown) => JSON.stringify(value) === JSON.stringify(expected);
    if (assistant && !(same(assistant.annotations, annotations) && same(assistant.x_host_trace, hostTrace))) {
      sendJson(response, 400, { error: { code: 400, message: 'messages[1]: the annotations and x_host_trace of this answer were not sent back' } });
      return;
    }
    const chunk = (delta: Json, finish: string | null = null) =>
      writeSseEvent(response, { id: 'gen-1', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] });
    startSse(response);
    chunk({ role: 'assistant', content: '', reasoning: null, refusal: null });
    chunk({ content: assistant ? 'ok' : 'Pydantic AI is an agent framework.' });
    if (!assistant) {
      for (const entry of annotations) chunk({ content: '', role: 'assistant', annotations: [entry] });
      chunk({ content: '', x_host_trace: hostTrace });
    }
    chunk({ content: '', role: 'assistant' }, 'stop');
    writeSseEvent(response, { id: 'gen-1', object: 'chat.completion.chunk', created: 0, model, choices: [], usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 } });
    response.write('data: [DONE]\n\n');
    response.end();
  });
  return Object.assign(server, { bodies });
}

let host: Awaited<ReturnType<typeof startAnnotatingHost>>;
beforeAll(async () => {
  host = await startAnnotatingHost();
});
afterAll(async () => {
  await host.close();
});

const adapterFor = (id = model) => createOpenAICompatibleAdapter({ provider: 'openrouter', model: id, baseURL: host.url, apiKey: 'loopback-key' });

async function run(messages: Message[], id = model): Promise<{ events: ModelStreamEvent[]; message?: AssistantMessage; error?: unknown }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of adapterFor(id).stream({ messages })) events.push(event);
  } catch (error) {
    return { events, error };
  }
  const finish = events.at(-1);
  return { events, ...(finish?.type === 'finish' ? { message: finish.message } : {}) };
}

const question: Message = { role: 'user', content: 'What is Pydantic AI?' };
const next: Message = { role: 'user', content: 'And its license?' };

describe('chat-completion message fields the adapter does not read', () => {
  it('are kept verbatim on the message: streamed lists appended, empty values not kept', async () => {
    const { message } = await run([question]);
    expect(message?.content.map((part) => part.type)).toEqual(['text', 'provider-tool']);
    expect(message?.content[1]).toMatchObject({
      name: 'message-fields',
      providerData: { provider: 'openrouter', model, fields: { annotations, x_host_trace: hostTrace } },
    });
  });

  it('go back in place to the host and model that produced them, which accepts the follow-up', async () => {
    const first = await run([question]);
    const second = await run([question, first.message as AssistantMessage, next]);
    expect(second.error).toBeUndefined();
    expect(second.message?.content).toEqual([{ type: 'text', text: 'ok' }]);
    const sent = (host.bodies.at(-1)?.messages as Json[])[1];
    expect(sent).toEqual({ role: 'assistant', content: 'Pydantic AI is an agent framework.', annotations, x_host_trace: hostTrace });
  });

  it('a follow-up without them is refused by the host (what dropping them would cost)', async () => {
    const first = await run([question]);
    const dropped = { ...(first.message as AssistantMessage), content: (first.message as AssistantMessage).content.slice(0, 1) };
    const second = await run([question, dropped, next]);
    expect(String((second.error as Error | undefined)?.message)).toContain('were not sent back');
  });

  it('are left out, with one warning, for another model', async () => {
    const first = await run([question]);
    const other = 'qwen/qwen3-32b';
    const { body, warnings } = adapterFor(other).prepare({ messages: [question, first.message as AssistantMessage, next] });
    expect((body.messages as unknown as Json[])[1]).toEqual({ role: 'assistant', content: 'Pydantic AI is an agent framework.' });
    const dropped = warnings.filter((warning) => warning.code === 'provider-tool-dropped');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.message).toContain('message-fields x1');
  });
});
