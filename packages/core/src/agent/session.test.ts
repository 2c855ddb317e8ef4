import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent } from './agent.js';
import { SessionBusyError } from '../loop/agent-errors.js';
import type { AgentEvent } from '../loop/agent-events.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import { FileSessionStore } from '../store/file-session-store.js';
import type { Message, UserMessage } from '../message/message.js';
import { scriptedModel } from '../testing/scripted-model.js';
import type { AgentTool } from '../loop/tool.js';

const ran: string[] = [];
const lookup: AgentTool = {
  spec: { name: 'lookup', description: 'looks up', inputSchema: { type: 'object' } },
  execute: async (args, context) => {
    ran.push(context.toolCallId);
    return { content: `found ${(args as { key: string }).key}` };
  },
};

describe('Session', () => {
  it('streams typed events and reports failures as events', async () => {
    const model = scriptedModel({
      steps: [
        { toolCalls: [{ id: 'k', name: 'lookup', args: { key: 'a' } }] },
        { text: 'done' },
        { error: { kind: 'auth' } },
      ],
    });
    const session = await new Agent({ model, tools: [lookup] }).session();
    const events: AgentEvent[] = [];
    for await (const event of session.stream('find a')) events.push(event);
    expect(events[0]).toMatchObject({
      type: 'episode-start',
      resumed: false,
      input: { role: 'user', content: 'find a' },
      model: model.model,
    });
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({ result: { content: 'found a' } });
    expect(events.at(-1)).toMatchObject({ type: 'episode-finish', reason: 'done', message: { role: 'assistant' } });

    const failing: AgentEvent[] = [];
    for await (const event of session.stream([{ type: 'text', text: 'again' }])) failing.push(event);
    expect(failing.slice(-2).map((event) => event.type)).toEqual(['error', 'episode-finish']);
    expect(failing.at(-1)).toMatchObject({ reason: 'error' });
  });

  it('refuses a second episode while one is running', async () => {
    const model = scriptedModel({ steps: [{ text: 'slow', delayMs: 30 }] });
    const session = await new Agent({ model }).session();
    const first = session.send('one');
    await expect(session.send('two')).rejects.toBeInstanceOf(SessionBusyError);
    const events = session.stream('three');
    await expect(events.next()).rejects.toBeInstanceOf(SessionBusyError);
    expect((await first).text).toBe('slow');
  });

  it('resume() runs the tool calls left without results, then calls the model', async () => {
    const store = new MemorySessionStore();
    const interrupted: Message[] = [
      { role: 'user', content: 'find a and b' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Two lookups.' },
          { type: 'tool-call', id: 'r1', name: 'lookup', args: { key: 'a' } },
          { type: 'tool-call', id: 'r2', name: 'lookup', args: { key: 'b' } },
        ],
      },
      { role: 'tool', toolCallId: 'r1', toolName: 'lookup', content: 'found a', isError: false },
    ];
    await store.append('crashed', interrupted);
    const model = scriptedModel({ steps: [{ text: 'a and b found' }] });
    const session = await new Agent({ model, tools: [lookup], store }).session({ id: 'crashed' });
    expect(session.unfinished).toBe(true);
    ran.length = 0;
    const events: AgentEvent[] = [];
    const result = await session.resume({ onEvent: (event) => events.push(event) });
    expect(ran).toEqual(['r2']);
    expect(result).toMatchObject({ reason: 'done', text: 'a and b found', steps: 1 });
    expect(events[0]).toMatchObject({ type: 'episode-start', resumed: true, input: undefined });
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(model.requests[0]?.messages[1]).toMatchObject({
      content: [{ type: 'reasoning', text: 'Two lookups.' }, {}, {}],
    });
    expect(session.unfinished).toBe(false);
  });

  it('resume() on a finished episode returns its answer without calling the model', async () => {
    const model = scriptedModel({ steps: [{ text: 'answer' }] });
    const session = await new Agent({ model }).session();
    await session.send('q');
    const result = await session.resume();
    expect(result).toMatchObject({ reason: 'done', text: 'answer', steps: 0 });
    expect(model.requests).toHaveLength(1);
  });

  it('resume() on an empty session says to send first', async () => {
    const session = await new Agent({ model: scriptedModel({ steps: [] }) }).session();
    await expect(session.resume()).rejects.toThrow(/call send\(\) first/);
  });
});

describe('Session input', () => {
  it('send() checks a user message like a transcript line before persisting it, and rejects rather than throws', async () => {
    const store = new FileSessionStore({ directory: await mkdtemp(join(tmpdir(), 'episodic-send-')), sync: false });
    const model = scriptedModel({ steps: [{ text: 'ok' }] });
    const agent = new Agent({ model, store });
    const session = await agent.session({ id: 's' });
    // e.g. a chat server passing on what its client sent
    const fromClient = JSON.parse('{"role":"user","content":[{"type":"txt","text":"hi"}]}') as UserMessage;
    const sent = session.send(fromClient);
    await expect(sent).rejects.toMatchObject({ code: 'invalid_transcript', field: 'content[0].type' });
    expect(model.requests).toHaveLength(0);
    // Nothing bad was stored: the session still loads and goes on.
    const reopened = await agent.session({ id: 's' });
    expect(reopened.messages).toEqual([]);
    expect((await reopened.send('hi')).text).toBe('ok');
    await rm(store.directory, { recursive: true, force: true });
  });
});

describe('Session after an interruption', () => {
  it('send() answers tool calls left without results before the new user message', async () => {
    const store = new MemorySessionStore();
    await store.append('s', [
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'left', name: 'lookup', args: { key: 'x' } }] },
    ]);
    const model = scriptedModel({ steps: [{ text: 'new answer' }] });
    const session = await new Agent({ model, tools: [lookup], store }).session({ id: 's' });
    await session.send('new question');
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    expect(session.messages[2]).toMatchObject({
      toolCallId: 'left',
      isError: true,
      content: expect.stringMatching(/did not run/),
    });
    expect((await store.load('s'))?.messages).toEqual(session.messages);
  });
});
