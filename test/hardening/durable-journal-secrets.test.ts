/**
 * Secrets and the durable journal, from the attacker's side: a tool prints a key (it
 * read `/proc/$PPID/environ`, or an upstream error echoed one), or fails with a message
 * holding it. The transcript shows `[redacted]`; the engine's journal, which records
 * each tool step's output before the executor sees it, must not hold the key either,
 * and a replay from the journal must give the same transcript.
 */
import { Agent, type Message, MemorySessionStore, type ModelRequest } from '@episodic/core';
import { MemoryJournal, scriptedModel, SimulatedCrash } from '@episodic/core/testing';
import type { AgentTool } from '@episodic/core';
import { describe, expect, it } from 'vitest';

const REDACTED = '[redacted]';
const secret = 'sk-planted-4f1c9a77e2b04d1f8c3a';
const printKey: AgentTool = {
  spec: { name: 'print_env', description: 'Prints the environment.', inputSchema: { type: 'object' } },
  execute: async () => ({ content: `HOME=/root\nPAYMENTS_KEY=${secret}\n` }),
};
const failWithKey: AgentTool = {
  spec: { name: 'call_api', description: 'Calls the API.', inputSchema: { type: 'object' } },
  execute: async () => {
    throw new Error(`401 from upstream: key ${secret} is revoked`);
  },
};

function setup() {
  const store = new MemorySessionStore();
  const steps = (request: ModelRequest) => {
    const done = request.messages.filter((message) => message.role === 'tool').length;
    if (done === 0) return { toolCalls: [{ id: 'c1', name: 'print_env', args: {} }, { id: 'c2', name: 'call_api', args: {} }] };
    return { text: 'done' };
  };
  const tools = [printKey, failWithKey];
  const agent = new Agent({ model: scriptedModel({ steps }), tools, store, secrets: [secret], context: { budget: 100_000 } });
  const journal = new MemoryJournal();
  const run = async () => (await agent.session({ id: 's' })).send('go', { durable: { runtime: journal, episode: 0 } });
  return { store, journal, run };
}

const toolContents = (messages: readonly Message[]) =>
  messages.flatMap((message) => (message.role === 'tool' ? [String(message.content)] : []));

describe('a tool step that prints or throws a secret under a durable runtime', () => {
  it('records the redacted output in the journal, as the transcript has it', async () => {
    const { store, journal, run } = setup();
    await run();
    const transcript = toolContents((await store.load('s'))!.messages);
    expect(transcript).toEqual([`HOME=/root\nPAYMENTS_KEY=${REDACTED}\n`, `Tool "call_api" failed: 401 from upstream: key ${REDACTED} is revoked`]);
    const recorded = [...journal.records.values()].join('\n');
    expect(recorded).not.toContain(secret);
    expect(recorded).toContain(`PAYMENTS_KEY=${REDACTED}`);
  });

  it('cuts a failure to 1,000 characters as without a runtime, redacting a key the cut would split', async () => {
    const prefix = 'Tool "call_api" failed: ';
    // The cut falls one character before the key's end.
    const padding = 'x'.repeat(1_000 - prefix.length - secret.length + 1);
    const huge: AgentTool = { ...failWithKey, execute: async () => Promise.reject(new Error(`${padding}${secret} ${'y'.repeat(100_000)}`)) };
    const steps = (request: ModelRequest) =>
      request.messages.some((message) => message.role === 'tool') ? { text: 'done' } : { toolCalls: [{ id: 'c1', name: 'call_api', args: {} }] };
    const results: string[] = [];
    for (const durable of [true, false]) {
      const store = new MemorySessionStore();
      const agent = new Agent({ model: scriptedModel({ steps }), tools: [huge], store, secrets: [secret], context: { budget: 100_000 } });
      const journal = new MemoryJournal();
      await (await agent.session({ id: 's' })).send('go', durable ? { durable: { runtime: journal, episode: 0 } } : {});
      const [content] = toolContents((await store.load('s'))!.messages);
      expect(content?.length).toBeLessThanOrEqual(1_003);
      expect(content).not.toContain(secret.slice(0, -1));
      expect([...journal.records.values()].join('\n')).not.toContain(secret.slice(0, -1));
      results.push(content!);
    }
    expect(results[0]).toBe(results[1]);
  });

  it('a replay after a crash gives the same transcript, from the redacted records', async () => {
    const { store, journal, run } = setup();
    journal.crashAt({ stepId: 's/0/model/2', when: 'before' });
    await expect(run()).rejects.toBeInstanceOf(SimulatedCrash);
    const before = toolContents((await store.load('s'))!.messages);
    await run();
    const after = (await store.load('s'))!.messages;
    expect(toolContents(after)).toEqual(before);
    expect(after.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(JSON.stringify(after)).not.toContain(secret);
    expect([...journal.records.values()].join('\n')).not.toContain(secret);
  });
});
