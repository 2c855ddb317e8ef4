/**
 * The shared conformance suite every SessionStore runs: each store's test file is a
 * single call to {@link sessionStoreConformance}.
 */
import { Agent, type AgentTool, type ApprovalRecord, type Message } from '@episodic/core';
import { messagesAfterCompaction, type PackState } from '@episodic/core/packing';
import { scriptedModel } from '@episodic/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { concurrencyCases, type StoreUnderTest } from './concurrency-conformance.js';

/** Creates a fresh, empty store; `cleanup` runs after each test. */
export type StoreFactory = () => Promise<StoreUnderTest>;

/** What a store offers beyond the common cases. */
export interface StoreTraits {
  /** The store outlives a writer's process, so a dead writer's session must be taken over (all but memory). */
  takeover: boolean;
}

const user: Message = { role: 'user', content: [{ type: 'text', text: 'Why is CI red?' }] };
const assistant: Message = {
  role: 'assistant',
  content: [
    {
      type: 'reasoning',
      text: 'Look at the log.',
      signature: 'sig-1',
      providerData: { provider: 'p', model: 'm', item: 'rs_1' },
    },
    { type: 'text', text: 'Checking.' },
    { type: 'tool-call', id: 'call_1', name: 'get_ci_log', args: { run: 42, nested: { list: [1, 'two'] } } },
  ],
  model: { provider: 'anthropic', id: 'claude' },
  usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 2 },
  customField: { kept: true },
};
const tool: Message = { role: 'tool', toolCallId: 'call_1', toolName: 'get_ci_log', content: 'FAIL x', isError: false };
const state: PackState = { version: 1, evictedEpisodes: 2, summary: { episodes: 2, text: 'earlier work' } };

export function sessionStoreConformance(name: string, factory: StoreFactory, traits: StoreTraits): void {
  describe(`${name} session store conformance`, () => {
    let cleanups: (() => Promise<void>)[] = [];
    const openTested = async () => {
      const tested = await factory();
      if (tested.cleanup) cleanups.push(tested.cleanup);
      return tested;
    };
    const open = async () => (await openTested()).store;
    afterEach(async () => {
      for (const cleanup of cleanups) await cleanup();
      cleanups = [];
    });

    it('returns undefined for a session it never stored', async () => {
      expect(await (await open()).load('unknown')).toBeUndefined();
    });

    it('appends in order across steps and loads the same messages back, extra fields included', async () => {
      const store = await open();
      await store.append('s', [user]);
      await store.append('s', [assistant, tool]);
      const loaded = await store.load('s');
      expect(loaded?.messages).toEqual([user, assistant, tool]);
      expect(loaded?.torn).toBeUndefined();
    });

    it('keeps an opaque compaction and the checkpoint summary beside it, and the compaction cut reads them back', async () => {
      const store = await open();
      const item = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAB' };
      const compacting: Message = {
        role: 'assistant',
        content: [{ type: 'compaction', providerData: { provider: 'openai', model: 'gpt-5.6', item } }, { type: 'text', text: 'Green.' }],
        model: { provider: 'openai', id: 'gpt-5.6' },
      };
      const line: Message = {
        role: 'summary',
        content: 'CI is green; the log was read.',
        episodes: { from: 0, to: 1 },
        checkpoint: { message: 3, id: 'cmp_1' },
        model: { provider: 'openai', id: 'gpt-5-mini' },
        usage: { inputTokens: 900, outputTokens: 40 },
      };
      await store.append('c', [user, assistant, tool, compacting]);
      await store.append('c', [line]);
      const loaded = (await store.load('c'))?.messages ?? [];
      expect(loaded).toEqual([user, assistant, tool, compacting, line]);
      const cut = messagesAfterCompaction(loaded, { provider: 'anthropic', id: 'claude-sonnet-4-6' });
      expect(cut.messages[0]).toMatchObject({ role: 'user', content: expect.stringContaining('CI is green; the log was read.') });
      expect(cut.at).toBe(3);
    });

    it('keeps sessions apart and lists them', async () => {
      const store = await open();
      await store.append('a', [user]);
      await store.append('b', [user, assistant]);
      expect((await store.load('a'))?.messages).toHaveLength(1);
      expect((await store.load('b'))?.messages).toHaveLength(2);
      if (store.list) expect((await store.list()).sort()).toEqual(['a', 'b']);
    });

    it('saves the latest pack state beside the transcript', async () => {
      const store = await open();
      await store.append('s', [user]);
      expect((await store.load('s'))?.packState).toBeUndefined();
      await store.saveState('s', { version: 1, evictedEpisodes: 0 });
      await store.saveState('s', state);
      expect((await store.load('s'))?.packState).toEqual(state);
    });

    it('is not changed by later edits to the objects it was given or returned', async () => {
      const store = await open();
      const message: Message = { role: 'user', content: 'original' };
      await store.append('s', [message]);
      message.content = 'edited';
      const loaded = await store.load('s');
      (loaded?.messages[0] as { content: string }).content = 'edited too';
      expect((await store.load('s'))?.messages[0]).toEqual({ role: 'user', content: 'original' });
    });

    it('rejects session ids that could escape the store', async () => {
      const store = await open();
      for (const id of ['../x', 'a/b', '.hidden', '', 'a\\b']) {
        await expect(store.append(id, [user])).rejects.toMatchObject({ code: 'invalid_argument' });
      }
    });

    it('persists a whole session run by an agent, so a reopened session continues it', async () => {
      const store = await open();
      const model = scriptedModel({
        steps: [
          { reasoning: 'plan', toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'x' } }] },
          { text: 'first answer' },
          { text: 'second answer' },
        ],
      });
      const echo = {
        spec: { name: 'echo', description: 'echoes', inputSchema: { type: 'object' } },
        execute: async (args: unknown) => ({ content: JSON.stringify(args) }),
      };
      const agent = new Agent({ model, tools: [echo], store });
      const session = await agent.session({ id: 'run' });
      await session.send('first');
      const reopened = await agent.session({ id: 'run' });
      expect(reopened.messages).toEqual(session.messages);
      expect(reopened.packState).toEqual(session.packState);
      await reopened.send('second');
      const loaded = await store.load('run');
      expect(loaded?.messages.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'user',
        'assistant',
      ]);
    });

    it('keeps the approval record beside the transcript, replaced whole and deleted on request', async () => {
      const store = await open();
      expect(store.saveApprovals, 'stores shared across processes must persist approval decisions').toBeDefined();
      await store.append('s', [user, assistant]);
      const record: ApprovalRecord = {
        version: 1,
        decisions: [{ callId: 'call_1', sessionId: 's', decision: 'rejected', reason: 'no', decidedAt: '2026-01-01T00:00:00.000Z' }],
      };
      await store.saveApprovals?.('s', { version: 1, decisions: [] });
      await store.saveApprovals?.('s', record);
      expect((await store.load('s'))?.approvals).toEqual(record);
      await store.saveApprovals?.('s', undefined);
      expect((await store.load('s'))?.approvals).toBeUndefined();
      await store.saveApprovals?.('s', undefined); // deleting twice is harmless
    });

    it('keeps a paused episode and its approval decisions across reopening', async () => {
      const store = await open();
      const ran: string[] = [];
      const deploy: AgentTool = {
        spec: { name: 'deploy', description: 'deploys', inputSchema: { type: 'object' } },
        needsApproval: true,
        execute: async (_args, context) => {
          ran.push(context.toolCallId);
          return { content: 'deployed' };
        },
      };
      const model = scriptedModel({
        steps: [{ reasoning: 'ship it', toolCalls: [{ id: 'd1', name: 'deploy', args: {} }] }, { text: 'shipped' }],
      });
      const agent = new Agent({ model, tools: [deploy], store });
      const paused = await (await agent.session({ id: 'p' })).send('deploy');
      expect(paused.status).toBe('paused');
      const reopened = await agent.session({ id: 'p' });
      expect(reopened.pendingApprovals).toEqual([{ callId: 'd1', toolName: 'deploy', args: {}, sessionId: 'p' }]);
      await reopened.approve('d1');
      const decided = await agent.session({ id: 'p' });
      expect(decided.pendingApprovals).toEqual([]);
      expect((await decided.resume()).text).toBe('shipped');
      expect(ran).toEqual(['d1']);
      expect((await store.load('p'))?.approvals).toBeUndefined();
    });

    describe('one writer per session', () => concurrencyCases(openTested, traits));
  });
}
