// The chat handler called with fetch `Request`s, as a Next.js route or Deno.serve
// would: the streamed episode, approvals listed, decided and resumed, bad bodies
// refused with what is wrong, the session given back when a stream is cancelled.
import { Agent, type AgentTool, MemorySessionStore } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { describe, expect, it } from 'vitest';
import { createChatHandler } from './chat-handler.js';

const deploy: AgentTool = {
  spec: { name: 'deploy', description: 'Deploys.', inputSchema: { type: 'object', properties: { env: { type: 'string' } } } },
  needsApproval: true,
  execute: async (args) => ({ content: `deployed to ${(args as { env: string }).env}` }),
};

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const message = (id: string, text: string) => ({ id, message: { role: 'user', parts: [{ type: 'text', text }] } });

/** The UI message chunks of a streamed answer. */
async function chunks(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: ') && event !== 'data: [DONE]')
    .map((event) => JSON.parse(event.slice('data: '.length)) as Record<string, unknown>);
}

describe('createChatHandler', () => {
  it('streams an episode of the chat id\'s session, which the next message continues', async () => {
    const store = new MemorySessionStore();
    const model = scriptedModel({ steps: [{ text: 'Hello!' }, { text: 'Again.' }] });
    const handler = createChatHandler({ agent: new Agent({ model, store }) });
    const first = await handler(post('/api/chat', message('c1', 'Hi')));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const sent = await chunks(first);
    expect(sent.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.delta).join('')).toBe('Hello!');
    await chunks(await handler(post('/api/chat', message('c1', 'More'))));
    const users = (await store.load('c1'))?.messages.filter((entry) => entry.role === 'user');
    expect(users).toHaveLength(2);
  });

  it('lists a paused chat\'s waiting calls, takes a decision and resumes the episode', async () => {
    const store = new MemorySessionStore();
    const model = scriptedModel({ steps: [{ toolCalls: [{ name: 'deploy', args: { env: 'prod' } }] }, { text: 'Deployed.' }] });
    const handler = createChatHandler({ agent: new Agent({ model, tools: [deploy], store }) });
    await chunks(await handler(post('/api/chat', message('ops', 'Deploy'))));
    const listed = await handler(new Request('http://localhost/api/chat/approvals?id=ops'));
    const { pending } = (await listed.json()) as { pending: Array<{ callId: string; toolName: string; args: unknown }> };
    expect(pending).toMatchObject([{ toolName: 'deploy', args: { env: 'prod' } }]);
    const unknown = await handler(post('/api/chat/approvals', { id: 'ops', callId: 'nope', decision: 'approved' }));
    expect(unknown.status).toBe(404);
    const decided = await handler(post('/api/chat/approvals', { id: 'ops', callId: pending[0]!.callId, decision: 'approved', note: 'ok' }));
    expect(await decided.json()).toEqual({ pending: [] });
    const resumed = await chunks(await handler(post('/api/chat/resume', { id: 'ops' })));
    expect(resumed.filter((chunk) => chunk.type === 'tool-output-available').map((chunk) => chunk.output)).toEqual([expect.stringMatching(/^deployed to prod/)]);
    expect(resumed.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.delta).join('')).toBe('Deployed.');
    // Nothing left to resume: refused, not run.
    expect((await handler(post('/api/chat/resume', { id: 'ops' }))).status).toBe(409);
  });

  it('takes the AI SDK transport\'s default body too: the last of `messages` is the new one', async () => {
    const store = new MemorySessionStore();
    const model = scriptedModel({ steps: [{ text: 'One.' }, { text: 'Two.' }] });
    const handler = createChatHandler({ agent: new Agent({ model, store }) });
    const user = (text: string) => ({ id: `m-${text}`, role: 'user', parts: [{ type: 'text', text }] });
    const first = { id: 'd', trigger: 'submit-message', messages: [user('first')] };
    await chunks(await handler(post('/api/chat', first)));
    const second = { id: 'd', trigger: 'submit-message', messages: [user('first'), { id: 'a', role: 'assistant', parts: [] }, user('second')] };
    await chunks(await handler(post('/api/chat', second)));
    const sent = (await store.load('d'))?.messages.filter((entry) => entry.role === 'user').map((entry) => JSON.stringify(entry.content));
    expect(sent).toEqual([expect.stringContaining('first'), expect.stringContaining('second')]);
    const regenerate = await handler(post('/api/chat', { ...second, trigger: 'regenerate-message' }));
    expect(regenerate.status).toBe(400);
    expect(await regenerate.text()).toMatch(/"trigger" "regenerate-message" is not supported/);
  });

  it('takes approvals answered the AI SDK way (an assistant message with approval-responded tool parts) and resumes', async () => {
    const store = new MemorySessionStore();
    const model = scriptedModel({ steps: [{ toolCalls: [{ name: 'deploy', args: { env: 'prod' } }] }, { text: 'Not deployed.' }] });
    const handler = createChatHandler({ agent: new Agent({ model, tools: [deploy], store }) });
    const paused = await chunks(await handler(post('/api/chat', message('sdk', 'Deploy'))));
    const request = paused.find((chunk) => chunk.type === 'tool-approval-request');
    expect(request).toBeDefined();
    const toolCallId = String(request!.toolCallId);
    // What the client sends after addToolApprovalResponse({ id, approved: false, reason }).
    const answered = {
      id: 'sdk',
      messages: [
        { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Deploy' }] },
        {
          id: 'a1',
          role: 'assistant',
          parts: [
            { type: 'tool-deploy', toolCallId, state: 'approval-responded', input: { env: 'prod' }, approval: { id: request!.approvalId, approved: false, reason: 'Freeze.' } },
          ],
        },
      ],
    };
    const resumed = await chunks(await handler(post('/api/chat', answered)));
    expect(resumed.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.delta).join('')).toBe('Not deployed.');
    const results = (await store.load('sdk'))?.messages.filter((entry) => entry.role === 'tool');
    expect(JSON.stringify(results)).toContain('Freeze.');
    // The same answer again: nothing waits and nothing is unfinished, so nothing runs.
    expect((await handler(post('/api/chat', answered))).status).toBe(409);
    const empty = { id: 'sdk', message: { role: 'assistant', parts: [{ type: 'text', text: 'x' }] } };
    expect(await (await handler(post('/api/chat', empty))).text()).toMatch(/answers no approval/);
  });

  it('refuses bodies that are not a chat request, naming the field', async () => {
    const handler = createChatHandler({ agent: new Agent({ model: scriptedModel({ steps: [] }) }), maxBodyBytes: 1_000 });
    const cases: Array<[unknown, number, RegExp]> = [
      ['not json', 400, /not JSON/],
      [{ id: '../etc', message: { role: 'user', parts: [] } }, 400, /"id"/],
      [{ id: 'a', message: { role: 'assistant', parts: [] } }, 400, /"message"/],
      [{ id: 'a', message: { role: 'user', parts: [{ type: 'text', text: 5 }] } }, 400, /message\.parts\[0\]\.text/],
      [message('a', '   '), 400, /no text/],
      [message('a', 'x'.repeat(2_000)), 413, /larger than 1000 bytes/],
    ];
    for (const [body, status, why] of cases) {
      const response = await handler(post('/api/chat', body));
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(await response.text()).toMatch(why);
    }
    const decision = await handler(post('/api/chat/approvals', { id: 'a', callId: 'c', decision: 'maybe' }));
    expect(await decision.text()).toMatch(/"decision" must be "approved" or "rejected"/);
  });

  it('gives the session back when the client cancels the stream, and aborts the episode', async () => {
    const store = new MemorySessionStore();
    const model = scriptedModel({ latencyMs: 5_000, steps: [{ text: 'slow' }, { text: 'fast' }] });
    const handler = createChatHandler({ agent: new Agent({ model, store }) });
    const first = await handler(post('/api/chat', message('s', 'one')));
    const reader = first.body!.getReader();
    await reader.read();
    // While it streams, the chat is busy.
    expect((await handler(post('/api/chat', message('s', 'two')))).status).toBe(409);
    const started = Date.now();
    await reader.cancel();
    // The chat is free again once the aborted episode has stopped, well before the model's 5 s reply.
    let second = await handler(post('/api/chat', message('s', 'three')));
    while (second.status === 409 && Date.now() - started < 4_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      second = await handler(post('/api/chat', message('s', 'three')));
    }
    expect(second.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(4_000);
    await second.body!.cancel();
  }, 20_000);

  it('sends other paths to the fallback after the same checks, and answers 404 without one', async () => {
    const agent = new Agent({ model: scriptedModel({ steps: [] }) });
    const page = createChatHandler({ agent, path: '/chat', fallback: () => new Response('page') });
    expect(await (await page(new Request('http://localhost/'))).text()).toBe('page');
    expect((await page(new Request('http://evil.example/'))).status).toBe(403);
    expect((await page(new Request('http://localhost/', { headers: { host: 'evil.example' } }))).status).toBe(403);
    const bare = createChatHandler({ agent });
    const missing = await bare(new Request('http://localhost/elsewhere'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-frame-options')).toBe('DENY');
    expect((await bare(post('/api/chat', message('a', 'hi'), { 'content-type': 'text/plain' }))).status).toBe(415);
    const allowed = createChatHandler({ agent, allowedHosts: ['chat.example'], fallback: () => new Response('ok') });
    expect((await allowed(new Request('https://chat.example/'))).status).toBe(200);
    expect((await allowed(new Request('https://chat.example/', { headers: { origin: 'https://chat.example' } }))).status).toBe(200);
    expect((await allowed(new Request('https://chat.example/', { headers: { origin: 'https://evil.example' } }))).status).toBe(403);
  });
});
