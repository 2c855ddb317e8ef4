/**
 * The one-writer-per-session cases of the store conformance suite (DESIGN.md,
 * "Session stores and many workers"): a second writer is refused before it writes,
 * a stale writer is refused, readers never see half a step, and a dead writer's
 * session is taken over within the store's documented time and resumed with no step
 * lost or doubled.
 */
import {
  Agent,
  ApprovalConflictError,
  type ApprovalRecord,
  type Message,
  SessionBusyError,
  SessionConflictError,
  type SessionStore,
  type ToolMessage,
  toolCallsOf,
} from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { expect, it } from 'vitest';

/** A store under test, with what the concurrency cases need of it. */
export interface StoreUnderTest {
  store: SessionStore;
  cleanup?: () => Promise<void>;
  /** A second handle on the same storage, as another worker opens it. Default: the same store. */
  reopen?: () => Promise<SessionStore>;
  /**
   * A writer elsewhere (another process, or another connection) takes the session's
   * lease, appends `messages` under it and dies without releasing it. Stores that die
   * with their process (memory) have no such case.
   */
  crashWriter?: (id: string, messages: Message[]) => Promise<void>;
  /** The longest a dead writer keeps a session, as configured for the test. */
  takeoverMs?: number;
  /** Deletes a session as the store allows: its `delete`, or its files removed by hand. */
  remove: (id: string) => Promise<void>;
}

const user: Message = { role: 'user', content: 'Run the checks.' };
const decided: ApprovalRecord = {
  version: 1,
  decisions: [{ callId: 'c1', sessionId: 's', decision: 'approved', decidedAt: '2026-01-01T00:00:00.000Z' }],
};
const step = (index: number): Message[] => [
  { role: 'assistant', content: [{ type: 'tool-call', id: `c${index}`, name: 'check', args: { index } }] },
  { role: 'tool', toolCallId: `c${index}`, toolName: 'check', content: `ok ${index}`, isError: false },
];

/** Registers the concurrency cases; `open` gives a fresh store per case. */
export function concurrencyCases(open: () => Promise<StoreUnderTest>, options: { takeover: boolean }): void {
  const second = async (tested: StoreUnderTest) => (tested.reopen ? tested.reopen() : tested.store);

  it('gives a session one writer at a time: a second acquire is busy until the first releases', async () => {
    const tested = await open();
    const { store } = tested;
    if (!store.acquire) throw new Error('every built-in store implements acquire');
    const other = await second(tested);
    const first = await store.acquire('s');
    expect(first.length).toBe(0);
    await expect(other.acquire!('s')).rejects.toBeInstanceOf(SessionBusyError);
    await expect(store.acquire('s')).rejects.toMatchObject({ code: 'session_busy' });
    const elsewhere = await other.acquire!('another-session');
    await store.append('s', [user], { lease: first, expectedLength: 0 });
    await first.release();
    await first.release();
    const next = await other.acquire!('s');
    expect(next.token).toBeGreaterThan(first.token);
    expect(next.length).toBe(1);
    await next.release();
    await elsewhere.release();
  });

  it('refuses writes with a released or superseded lease, and unleased writes while a lease is held', async () => {
    const tested = await open();
    const { store } = tested;
    const other = await second(tested);
    const stale = await store.acquire!('s');
    await store.append('s', [user], { lease: stale, expectedLength: 0 });
    await stale.release();
    const current = await other.acquire!('s');
    await expect(store.append('s', step(1), { lease: stale, expectedLength: 1 })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    await expect(store.saveState('s', { version: 1, evictedEpisodes: 0 }, { lease: stale })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    await expect(store.append('s', step(1))).rejects.toBeInstanceOf(SessionBusyError);
    await expect(store.saveState('s', { version: 1, evictedEpisodes: 0 })).rejects.toBeInstanceOf(SessionBusyError);
    // An approval decision between runs is written without a lease: refused while a run holds the session.
    await expect(store.saveApprovals!('s', decided)).rejects.toBeInstanceOf(SessionBusyError);
    await expect(store.saveApprovals!('s', decided, { lease: stale })).rejects.toBeInstanceOf(SessionConflictError);
    await other.append('s', step(1), { lease: current, expectedLength: 1 });
    await current.release();
    const loaded = await store.load('s');
    expect(loaded?.messages).toEqual([user, ...step(1)]);
    expect(loaded?.packState).toBeUndefined();
    expect(loaded?.approvals).toBeUndefined();
    await store.saveApprovals!('s', decided);
    expect((await store.load('s'))?.approvals).toEqual(decided);
  });

  it('refuses the writer of a deleted session at its next write, also once the session is created again', async () => {
    const tested = await open();
    const other = await second(tested);
    const note = (text: string): Message => ({ role: 'user', content: text });
    const stale = await tested.store.acquire!('s');
    await tested.store.append('s', [note('A-1'), note('A-2')], { lease: stale, expectedLength: 0 });
    await tested.remove('s');
    const fresh = await other.acquire!('s');
    expect(fresh.length).toBe(0);
    await other.append('s', [note('B-1'), note('B-2')], { lease: fresh, expectedLength: 0 });
    // The stale writer believes the session holds two messages, as it now does: only the lease can tell.
    await expect(tested.store.append('s', [note('A-3 stale')], { lease: stale, expectedLength: 2 })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    await expect(tested.store.saveState('s', { version: 1, evictedEpisodes: 9 }, { lease: stale })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    await stale.release();
    // Releasing the stale lease must not free the new writer's session.
    await expect(tested.store.acquire!('s')).rejects.toBeInstanceOf(SessionBusyError);
    await other.append('s', [note('B-3')], { lease: fresh, expectedLength: 2 });
    await fresh.release();
    const loaded = await tested.store.load('s');
    expect(loaded?.messages).toEqual([note('B-1'), note('B-2'), note('B-3')]);
    expect(loaded?.packState).toBeUndefined();
  });

  it('decides an approval once: a second decision made on the same view is refused, not last-writer-wins', async () => {
    const tested = await open();
    const other = await second(tested);
    const decision = (callId: string, verdict: 'approved' | 'rejected'): ApprovalRecord => ({
      version: 1,
      revision: 1,
      decisions: [{ callId, sessionId: 's', decision: verdict, decidedAt: '2026-01-01T00:00:00.000Z' }],
    });
    await tested.store.append('s', [user]);
    // Both deciders loaded the session before either decided: both expect revision 0.
    await other.saveApprovals!('s', decision('X', 'rejected'), { expectedRevision: 0 });
    await expect(tested.store.saveApprovals!('s', decision('X', 'approved'), { expectedRevision: 0 })).rejects.toMatchObject({
      code: 'approval_conflict',
    });
    await expect(tested.store.saveApprovals!('s', decision('Y', 'approved'), { expectedRevision: 0 })).rejects.toBeInstanceOf(
      ApprovalConflictError,
    );
    expect((await tested.store.load('s'))?.approvals).toEqual(decision('X', 'rejected'));
    // Decided again on what is stored now, it is written.
    const both: ApprovalRecord = { ...decision('X', 'rejected'), revision: 2 };
    both.decisions.push(decision('Y', 'approved').decisions[0]!);
    await tested.store.saveApprovals!('s', both, { expectedRevision: 1 });
    expect((await other.load('s'))?.approvals).toEqual(both);
  });

  it('refuses an append that expects another length, writing nothing', async () => {
    const { store } = await open();
    await store.append('s', [user], { expectedLength: 0 });
    await expect(store.append('s', step(1), { expectedLength: 0 })).rejects.toBeInstanceOf(SessionConflictError);
    await expect(store.append('s', step(1), { expectedLength: 3 })).rejects.toMatchObject({ code: 'session_conflict' });
    await store.append('s', step(1), { expectedLength: 1 });
    expect((await store.load('s'))?.messages).toEqual([user, ...step(1)]);
  });

  it('refuses a second send on one session id before it writes; the first episode finishes whole', async () => {
    const tested = await open();
    const slow = scriptedModel({ steps: [{ text: 'first answer', delayMs: 150 }] });
    const first = await new Agent({ model: slow, store: tested.store }).session({ id: 'chat' });
    const other = await second(tested);
    const eager = scriptedModel({ steps: [{ text: 'must not run' }] });
    const rival = await new Agent({ model: eager, store: other }).session({ id: 'chat' });
    const running = first.send('one');
    await waitFor(async () => ((await tested.store.load('chat'))?.messages.length ?? 0) > 0);
    await expect(rival.send('two')).rejects.toBeInstanceOf(SessionBusyError);
    expect(eager.requests).toHaveLength(0);
    expect((await running).text).toBe('first answer');
    expect((await tested.store.load('chat'))?.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    // Opened before the first episode was stored: stale, so refused rather than written over.
    await expect(rival.send('two')).rejects.toBeInstanceOf(SessionConflictError);
    const reopened = await new Agent({ model: scriptedModel({ steps: [{ text: 'second answer' }] }), store: other }).session({
      id: 'chat',
    });
    expect((await reopened.send('two')).text).toBe('second answer');
    expect((await tested.store.load('chat'))?.messages).toHaveLength(4);
  });

  it('never shows a reader half a step', async () => {
    const tested = await open();
    const reader = await second(tested);
    const lease = await tested.store.acquire!('s');
    await tested.store.append('s', [user], { lease, expectedLength: 0 });
    const steps = 30;
    let writing = true;
    const written = (async () => {
      for (let index = 1; index <= steps; index += 1) {
        await tested.store.append('s', step(index), { lease, expectedLength: 1 + 2 * (index - 1) });
      }
      writing = false;
    })();
    const seen = new Set<number>();
    while (writing) {
      const messages = (await reader.load('s'))?.messages ?? [];
      seen.add(messages.length);
      expect(messages.length % 2, `a load saw ${messages.length} messages: half a step`).toBe(1);
      expect(messages).toEqual([user, ...Array.from({ length: (messages.length - 1) / 2 }, (_, i) => step(i + 1)).flat()]);
    }
    await written;
    await lease.release();
    expect((await reader.load('s'))?.messages).toHaveLength(1 + 2 * steps);
  });

  // A store that dies with its process (memory) leaves nobody to take over from.
  if (!options.takeover) return;

  it('takes over the session of a writer that died, within the documented time, and resumes it whole', async () => {
    const tested = await open();
    if (!tested.crashWriter || tested.takeoverMs === undefined) throw new Error('give crashWriter and takeoverMs');
    const interrupted: Message[] = [user, step(1)[0]!];
    await tested.crashWriter('s', interrupted);
    const crashed = Date.now();
    const worker = await second(tested);
    // Right after the death, the dead writer's lease still holds the session.
    const early = await worker.acquire!('s').catch((error: unknown) => error);
    expect(early).toBeInstanceOf(SessionBusyError);
    // (A file lock's first timestamp may be set up to a second ahead: see file-session-lock.ts.)
    expect((early as SessionBusyError).retryAfterMs ?? 0).toBeLessThanOrEqual(tested.takeoverMs + 1_000);
    const ran: string[] = [];
    const check = {
      spec: { name: 'check', description: 'checks', inputSchema: { type: 'object' } },
      execute: async (args: unknown) => {
        ran.push(JSON.stringify(args));
        return { content: `ok ${(args as { index: number }).index}` };
      },
    };
    const model = scriptedModel({ steps: [{ text: 'all checks passed' }] });
    const agent = new Agent({ model, tools: [check], store: worker });
    const session = await agent.session({ id: 's' });
    expect(session.unfinished).toBe(true);
    let result;
    for (;;) {
      try {
        result = await session.resume();
        break;
      } catch (error) {
        if (!(error instanceof SessionBusyError)) throw error;
        expect(Date.now() - crashed, 'not taken over within the documented time').toBeLessThan(tested.takeoverMs + 2_500);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(result.text).toBe('all checks passed');
    expect(ran).toEqual(['{"index":1}']);
    const messages = (await tested.store.load('s'))?.messages ?? [];
    expect(messages).toEqual(session.messages);
    expectWhole(messages);
  });
}

/** One episode: every tool call answered exactly once, in order, and one final answer. */
function expectWhole(messages: readonly Message[]): void {
  const calls = messages.flatMap((message) => (message.role === 'assistant' ? toolCallsOf(message).map((call) => call.id) : []));
  const results = messages.filter((message): message is ToolMessage => message.role === 'tool').map((message) => message.toolCallId);
  expect(results).toEqual(calls);
  expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
