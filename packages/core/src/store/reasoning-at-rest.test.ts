import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../loop/agent-events.js';
import { FileSessionStore } from './file-session-store.js';
import type { Message } from '../message/message.js';
import type { Retention } from '../message/retention.js';
import type { SessionStore } from './session-store.js';
import { hasToolCall } from '../loop/stop-conditions.js';
import { type ScriptStep, scriptedModel } from '../testing/scripted-model.js';
import type { AgentTool } from '../loop/tool.js';

const read: AgentTool = {
  spec: { name: 'read', description: 'reads a file', inputSchema: { type: 'object' } },
  execute: async () => ({ content: 'contents' }),
};
const fail: ScriptStep = { error: { kind: 'invalid-request', message: 'scripted failure' } };

let directory: string;
let store: FileSessionStore;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'episodic-at-rest-'));
  store = new FileSessionStore({ directory, sync: false });
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function open(steps: ScriptStep[], retention: Retention = 'episode', sessionStore: SessionStore = store) {
  const model = scriptedModel({ steps, profile: { retention } });
  const modelCalls = { retry: { maxRetries: 0 } };
  const agent = new Agent({ model, tools: [read], store: sessionStore, context: { budget: 50_000 }, modelCalls });
  return { model, session: () => agent.session({ id: 's', persistReasoning: 'current-episode' }) };
}

const transcriptText = () => readFile(store.transcriptPath('s'), 'utf8');
const sidecarExists = () =>
  access(store.sidecarPath('s')).then(
    () => true,
    () => false,
  );
const reasoningOf = (messages: readonly Message[]) =>
  messages.flatMap((message) =>
    message.role === 'assistant'
      ? message.content.flatMap((part) => (part.type === 'reasoning' ? [part.text] : []))
      : [],
  );

/** An episode that reasons, calls a tool, and then fails: unfinished, as after a crash. */
async function interruptedEpisode(): Promise<void> {
  const { session } = open([{ reasoning: 'SECRET-ONE', toolCalls: [{ name: 'read' }] }, fail]);
  await expect((await session()).send('CI is red')).rejects.toThrow(/scripted failure/);
}

describe("persistReasoning: 'current-episode'", () => {
  it('never writes reasoning to the transcript, keeps the unfinished episode`s in a sidecar, and resumes with it', async () => {
    await interruptedEpisode();
    expect(await transcriptText()).not.toContain('SECRET-ONE');
    expect(await readFile(store.sidecarPath('s'), 'utf8')).toContain('SECRET-ONE');

    const { model, session: reopen } = open([{ reasoning: 'SECRET-TWO', text: 'Fixed.' }]);
    const session = await reopen();
    expect(reasoningOf(session.messages)).toEqual(['SECRET-ONE']);
    await session.resume();
    expect(reasoningOf(model.requests[0]?.messages ?? [])).toEqual(['SECRET-ONE']);

    // The episode is over: its reasoning is gone from disk, but the live session keeps it.
    expect(await sidecarExists()).toBe(false);
    const text = await transcriptText();
    expect(text).not.toMatch(/SECRET/);
    expect(text).toContain('Fixed.');
    expect(reasoningOf(session.messages)).toEqual(['SECRET-ONE', 'SECRET-TWO']);
    expect(reasoningOf((await open([]).session()).messages)).toEqual([]);
  });

  it('keeps reasoning that a reopened, still unfinished later episode produces', async () => {
    const first = open([{ text: 'Hello.' }, { toolCalls: [{ name: 'read' }] }, fail]);
    const session = await first.session();
    await session.send('hi');
    await expect(session.send('CI is red')).rejects.toThrow(/scripted failure/);
    const second = open([{ reasoning: 'SECRET-LATER', toolCalls: [{ name: 'read' }] }, fail]);
    await expect((await second.session()).resume()).rejects.toThrow(/scripted failure/);
    const reopened = await open([]).session();
    expect(reasoningOf(reopened.messages)).toEqual(['SECRET-LATER']);
    expect(await transcriptText()).not.toContain('SECRET');
  });

  it('deletes a sidecar left by an unfinished episode when a new episode starts', async () => {
    await interruptedEpisode();
    const { session } = open([fail]);
    await expect((await session()).send('Forget that, new question')).rejects.toThrow();
    expect(await sidecarExists()).toBe(false);
    expect(reasoningOf((await open([]).session()).messages)).toEqual([]);
  });

  it('warns on load when the model needs past reasoning back (tool-episodes)', async () => {
    const { session } = open([{ reasoning: 'why', toolCalls: [{ name: 'read' }] }, { text: 'done' }], 'tool-episodes');
    await (await session()).send('CI is red');
    const { session: reopen } = open([{ text: 'ok' }], 'tool-episodes');
    const reopened = await reopen();
    expect(reopened.warnings).toHaveLength(1);
    expect(reopened.warnings[0]).toMatch(/1 assistant message\(s\) with tool calls have no reasoning/);
    const events: AgentEvent[] = [];
    await reopened.send('And now?', { onEvent: (event) => events.push(event) });
    expect(events[1]).toMatchObject({ type: 'warning', step: 0, code: 'reasoning-missing' });
    // A model that drops past reasoning anyway has nothing to warn about.
    expect((await open([], 'episode').session()).warnings).toEqual([]);
  });

  it('refuses a store that cannot keep a sidecar', async () => {
    const plain: SessionStore = {
      load: async () => undefined,
      append: async () => {},
      saveState: async () => {},
    };
    await expect(open([], 'episode', plain).session()).rejects.toThrow(/saveReasoningSidecar/);
  });

  it('deletes the sidecar when a stop condition ends the episode (as with hasToolCall("finish"))', async () => {
    const finish: AgentTool = { ...read, spec: { ...read.spec, name: 'finish' } };
    const model = scriptedModel({ steps: [{ reasoning: 'SECRET-STOP', toolCalls: [{ name: 'finish' }] }] });
    const agent = new Agent({ model, tools: [finish], store, stopWhen: hasToolCall('finish'), context: { budget: 50_000 } });
    const session = await agent.session({ id: 's', persistReasoning: 'current-episode' });
    expect((await session.send('Fix it and call finish')).reason).toBe('stop-condition');
    expect(await sidecarExists()).toBe(false);
    expect(await transcriptText()).not.toContain('SECRET');
  });
});
