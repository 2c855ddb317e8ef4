import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from './agent.js';
import type { ToolMessage } from '../message/message.js';
import { scriptedModel } from '../testing/scripted-model.js';

const variable = 'EPISODIC_SESSION_SETTINGS_TEST_TOKEN';
const planted = 'tok-session-settings-4f1c9a7e2b';

/** An agent whose tool answers with `planted`, one tool call then a final text per episode. */
function leakyAgent(): Agent {
  const model = scriptedModel({
    steps: (_request, index) => (index % 2 === 0 ? { toolCalls: [{ name: 'echo', args: {} }] } : { text: 'done' }),
  });
  const echo = {
    spec: { name: 'echo', description: 'Prints a value', inputSchema: { type: 'object' } },
    execute: async () => ({ content: `value=${planted}` }),
  };
  return new Agent({ model, tools: [echo], context: { budget: 10_000 } });
}

async function toolOutput(agent: Agent): Promise<string> {
  const session = await agent.session();
  await session.send('print it');
  return (session.messages.find((message) => message.role === 'tool') as ToolMessage).content as string;
}

describe('session settings', () => {
  afterEach(() => {
    delete process.env[variable];
  });

  it('picks up a key set in, then removed from, the environment between two opens of the same agent', async () => {
    const agent = leakyAgent();
    delete process.env[variable];
    expect(await toolOutput(agent)).toBe(`value=${planted}`);
    process.env[variable] = planted;
    expect(await toolOutput(agent)).toBe('value=[redacted]');
    expect(await toolOutput(agent)).toBe('value=[redacted]');
    process.env[variable] = `${planted}-rotated`;
    expect(await toolOutput(agent)).toBe(`value=${planted}`);
    delete process.env[variable];
    expect(await toolOutput(agent)).toBe(`value=${planted}`);
  });

  it('gives a session opened with hand-off other settings than one opened without, and builds them once for sessions opened alike', async () => {
    const agent = leakyAgent();
    const plain = await agent.session();
    const handoff = await agent.session({ handoff: { maxTraces: 1 } });
    const again = await agent.session();
    const next = await agent.session();
    const settingsOf = (session: object) => (session as unknown as { settings: { handoff?: unknown } }).settings;
    expect(settingsOf(plain).handoff).toBeUndefined();
    expect(settingsOf(handoff).handoff).toEqual({ maxTraces: 1 });
    expect(settingsOf(again).handoff).toBeUndefined();
    // Opened alike one after the other: built once.
    expect(settingsOf(next)).toBe(settingsOf(again));
  });
});
