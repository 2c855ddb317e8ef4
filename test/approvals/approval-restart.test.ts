/**
 * Approvals across processes, on the file store and on a PostgreSQL server
 * (EPISODIC_PG_URL, else a throwaway server started here; without either the
 * Postgres cases fail, saying how to get one): one process pauses and exits, a
 * second approves and is killed before resuming, and this one resumes: the approved
 * call runs once, the episode's reasoning goes back intact, nothing is doubled.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, type SessionStore, type ToolMessage } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { PostgresSessionStore } from '@episodic/postgres';
import { serverPerFile } from '@episodic/postgres/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { dropSchema, freshSchema } from '../session-stores/postgres-fixtures.js';
import { approvalScript, approvalTools } from './approval-script.mjs';

const child = fileURLToPath(new URL('./approval-child.mjs', import.meta.url));
const builtCore = fileURLToPath(new URL('../../packages/core/dist/testing/index.js', import.meta.url));
const builtPostgres = fileURLToPath(new URL('../../packages/postgres/dist/index.js', import.meta.url));

/** Runs the child to its end; resolves with its output and how it ended. */
function runChild(...args: string[]): Promise<{ stdout: string; stderr: string; code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const worker = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    worker.stdout.on('data', (chunk) => (stdout += chunk));
    worker.stderr.on('data', (chunk) => (stderr += chunk));
    worker.on('error', reject);
    worker.on('exit', (code, signal) => resolve({ stdout, stderr, code, signal }));
  });
}

async function ranCalls(directory: string): Promise<string[]> {
  const path = join(directory, 'ran.log');
  return existsSync(path) ? (await readFile(path, 'utf8')).split('\n').filter(Boolean) : [];
}

/** A store kind under test: how this process opens it, how a child is told to, and whether a decision waits in it. */
interface StoreKind {
  name: string;
  /** Opens the store for a test whose files go to `directory`; returns the child's store arguments. */
  prepare(directory: string): Promise<{ store: SessionStore; childArgs: string[]; cleanup(): Promise<void> }>;
  /** Whether an approval decision of session `id` waits in the store. */
  decisionStored(store: SessionStore, directory: string, id: string): Promise<boolean>;
}

const server = serverPerFile();
afterAll(() => server.stop());

const kinds: StoreKind[] = [
  {
    name: 'file store',
    async prepare(directory) {
      return { store: new FileSessionStore({ directory }), childArgs: ['file'], cleanup: async () => {} };
    },
    // The record's own file: what survives the approving process's death is on disk.
    decisionStored: async (_store, directory, id) => existsSync(join(directory, `${id}.approvals.json`)),
  },
  {
    name: 'postgres server',
    async prepare() {
      expect(existsSync(builtPostgres), 'the children import the built @episodic/postgres: run `npx tsc -b`').toBe(true);
      const connectionString = await server.url();
      const schema = freshSchema();
      const store = new PostgresSessionStore({ connectionString, schema });
      return {
        store,
        childArgs: ['postgres', connectionString, schema],
        async cleanup() {
          await store.close();
          await dropSchema(connectionString, schema);
        },
      };
    },
    decisionStored: async (store, _directory, id) => (await store.load(id))?.approvals !== undefined,
  },
];

describe.each(kinds)('approvals across processes ($name)', (kind) => {
  let directory: string | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
    if (directory) await rm(directory, { recursive: true, force: true });
  });
  const open = async () => {
    directory = await mkdtemp(join(tmpdir(), 'episodic-approval-'));
    const prepared = await kind.prepare(directory);
    cleanup = prepared.cleanup;
    return { directory, store: prepared.store, run: (...args: string[]) => runChild(directory!, ...prepared.childArgs, ...args) };
  };

  it('pause, exit, approve in a process that dies, resume here: the call runs once, reasoning intact', async () => {
    expect(existsSync(builtCore), 'the children import the built @episodic/core: run `npx tsc -b packages/core`').toBe(true);
    const { directory, store, run } = await open();
    const id = 'approval-session';

    const paused = await run(id, 'pause');
    expect(paused.stderr).toBe('');
    expect(paused.code).toBe(0);
    expect(JSON.parse(paused.stdout)).toEqual({
      status: 'paused',
      pending: [{ callId: 'patch_1', toolName: 'apply_patch', args: { patch: '-1\n+2' }, sessionId: id }],
    });
    expect(await ranCalls(directory)).toEqual(['log_1']); // the call that needs no approval ran at once

    const approving = await run(id, 'approve', 'patch_1');
    expect(approving.signal).toBe('SIGKILL');
    expect(approving.stderr).toBe('');
    expect(await kind.decisionStored(store, directory, id)).toBe(true);

    const model = scriptedModel({ steps: approvalScript });
    const agent = new Agent({ model, system: 'You fix CI.', tools: approvalTools(directory), store });
    const session = await agent.session({ id });
    expect(session.pendingApprovals).toEqual([]);
    expect(session.unfinished).toBe(true);
    const result = await session.resume();

    expect(result).toMatchObject({ status: 'finished', text: 'patched and checked' });
    expect(await ranCalls(directory)).toEqual(['log_1', 'patch_1']);
    const request = model.requests[0]?.messages ?? [];
    expect(request.filter((message) => message.role === 'user')).toHaveLength(1);
    expect(request[1]).toMatchObject({ role: 'assistant', content: [{ type: 'reasoning', signature: 'sig-1' }, {}, {}] });
    const results = request.filter((message): message is ToolMessage => message.role === 'tool');
    expect(results.map((message) => [message.toolCallId, message.approval?.decision])).toEqual([
      ['log_1', undefined],
      ['patch_1', 'approved'],
    ]);
    expect(results[1]?.content).toContain('approved from another process');
    expect((await store.load(id))?.messages).toEqual(session.messages);
    expect(await kind.decisionStored(store, directory, id)).toBe(false);
  });

  it('a rejection made in another process reaches the model as an error result', async () => {
    const { directory, store, run } = await open();
    const id = 'rejected-session';
    expect((await run(id, 'pause')).code).toBe(0);
    const rejecting = await run(id, 'reject', 'patch_1');
    expect(rejecting).toMatchObject({ code: 0, stderr: '' });

    const model = scriptedModel({ steps: approvalScript });
    const agent = new Agent({ model, tools: approvalTools(directory), store });
    await (await agent.session({ id })).resume();
    expect(await ranCalls(directory)).toEqual(['log_1']);
    const rejected = model.requests[0]?.messages.find(
      (message): message is ToolMessage => message.role === 'tool' && message.toolCallId === 'patch_1',
    );
    expect(rejected).toMatchObject({ isError: true, approval: { decision: 'rejected', by: 'person', reason: 'not on a Friday' } });
  });

  it('decides a call once when two processes decide it at the same moment: the second is refused, not stored over', async () => {
    const { directory, store, run } = await open();
    const id = 'raced-session';
    expect((await run(id, 'pause')).code).toBe(0);
    const go = join(directory, 'go');
    const racers = ['race-approve', 'race-reject'].map((command) => run(id, command, 'patch_1', go));
    // Both have opened the session (seen no decision) before either decides.
    await expect.poll(async () => (await readFile(join(directory, 'ready'), 'utf8').catch(() => '')).length, { timeout: 20_000 }).toBe(2);
    await writeFile(go, '');
    const outcomes = (await Promise.all(racers)).map((ended) => {
      expect(ended.stderr).toBe('');
      return JSON.parse(ended.stdout.trim().split('\n').at(-1)!) as { ok: boolean; code?: string };
    });
    const winners = outcomes.filter((outcome) => outcome.ok);
    expect(winners, JSON.stringify(outcomes)).toHaveLength(1);
    expect(outcomes.find((outcome) => !outcome.ok)).toMatchObject({ code: 'approval_conflict' });
    const stored = (await store.load(id))?.approvals?.decisions ?? [];
    expect(stored).toHaveLength(1);
    expect(stored[0]!.decision).toBe(outcomes[0]!.ok ? 'approved' : 'rejected');
  }, 90_000);
});
