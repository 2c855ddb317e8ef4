/**
 * `run_command` under a durable runtime: a command that ran before a crash, whose
 * result was not recorded, is not run again on the replay (it is declared not
 * idempotent); a tool that says it is idempotent is run again, as before.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, MemorySessionStore, stepIds, unknownOutcome } from '@episodic/core';
import { createApproximateCounter, MemoryJournal, scriptedModel, SimulatedCrash } from '@episodic/core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCommandTool } from './run-command.js';

/** A journal that runs one step's function and then "crashes" before recording its result. */
class CrashAfterRunning extends MemoryJournal {
  constructor(private crashing: string | undefined) {
    super();
  }

  override async step<T>(id: string, run: () => Promise<T>): Promise<T> {
    if (id !== this.crashing) return super.step(id, run);
    this.crashing = undefined;
    await run();
    throw new SimulatedCrash(`after running ${id}, before recording it`);
  }
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'episodic-run-command-durable-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function crashAndReplay(idempotent: boolean | undefined) {
  const log = path.join(root, `ran-${String(idempotent)}.log`);
  const argv = [process.execPath, '-e', `require('node:fs').appendFileSync(${JSON.stringify(log)}, 'ran\\n')`];
  const model = scriptedModel({
    steps: (request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { text: 'deploying', toolCalls: [{ id: 'c1', name: 'run_command', args: { argv } }] },
  });
  const tool = runCommandTool({ root, ...(idempotent === undefined ? {} : { idempotent }) });
  const agent = new Agent({ model, tools: [tool], store: new MemorySessionStore(), context: { tokenizer: createApproximateCounter() } });
  const journal = new CrashAfterRunning(stepIds.tool('s', 0, 'c1'));
  const run = async () => (await agent.session({ id: 's' })).send('deploy', { durable: { runtime: journal, episode: 0 } });
  await expect(run()).rejects.toBeInstanceOf(SimulatedCrash);
  const result = await run();
  const session = await agent.session({ id: 's' });
  return { result, runs: (await readFile(log, 'utf8')).split('\n').filter(Boolean).length, messages: session.messages };
}

it('run_command that ran before a crash is not run again on the replay: the model reads that its outcome is unknown', async () => {
  const { result, runs, messages } = await crashAndReplay(undefined);
  expect(result.reason).toBe('done');
  expect(runs).toBe(1);
  expect(messages[2]).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true, content: unknownOutcome('run_command') });
});

it('run_command declared idempotent runs again after the crash (at least once)', async () => {
  const { runs } = await crashAndReplay(true);
  expect(runs).toBe(2);
});
