import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, type Message, SessionBusyError, type ToolMessage, toolCallsOf } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { crashScript, TOOL_STEPS, workTool } from './crash-script.mjs';

const child = fileURLToPath(new URL('./crash-child.mjs', import.meta.url));
const builtCore = fileURLToPath(new URL('../../packages/core/dist/testing/index.js', import.meta.url));

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('crash and resume', () => {
  let directory: string | undefined;
  afterEach(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('a session killed with SIGKILL mid-episode resumes the same episode, reasoning intact, no step lost or doubled', async () => {
    expect(existsSync(builtCore), 'the child imports the built @episodic/core: run `npx tsc -b packages/core`').toBe(
      true,
    );
    directory = await mkdtemp(join(tmpdir(), 'episodic-crash-'));
    const id = 'crashed-session';
    const hangAt = 3;
    const transcript = join(directory, `${id}.jsonl`);
    const worker = spawn(process.execPath, [child, directory, id, String(hangAt)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    worker.stdout.on('data', (chunk) => (output += chunk));
    worker.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      worker.on('exit', (_code, signal) => resolve(signal)),
    );

    // Kill once the assistant message of step 3 is on disk: the child is then inside that step's tool.
    await waitFor(async () => {
      if (worker.exitCode !== null) throw new Error(`child exited early: ${output}`);
      return existsSync(transcript) && (await readFile(transcript, 'utf8')).includes(`"id":"call_${hangAt}"`);
    }, 15_000);
    worker.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(output).toBe('');

    const store = new FileSessionStore({ directory, staleMs: 4_000 });
    // Right after the death, the dead child's lock still holds the session.
    const early = await store.acquire(id).catch((error: unknown) => error);
    const refusedAt = Date.now();
    expect(early).toBeInstanceOf(SessionBusyError);
    const retryAfterMs = (early as SessionBusyError).retryAfterMs ?? 0;
    expect(retryAfterMs).toBeLessThanOrEqual(store.staleMs + 1_000);
    const onDisk = await store.load(id);
    expect(onDisk?.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{}, { id: `call_${hangAt}` }] });

    const ran: number[] = [];
    const model = scriptedModel({ steps: crashScript });
    const agent = new Agent({ model, system: 'You fix CI.', tools: [workTool({ ran })], store });
    const session = await agent.session({ id });
    expect(session.unfinished).toBe(true);
    // Taken over once the lock is stale (the wait is over already on a slow machine).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, refusedAt + retryAfterMs + 50 - Date.now())));
    const result = await session.resume();

    expect(result.text).toBe('all steps done');
    expect(ran).toEqual([hangAt, TOOL_STEPS]); // the interrupted tool ran again, then the remaining step
    // The first request after the crash carries the reasoning of every earlier step of the episode.
    const reasoning = model.requests[0]?.messages.flatMap((message) =>
      message.role === 'assistant'
        ? message.content.filter((part) => part.type === 'reasoning').map((part) => part.text)
        : [],
    );
    expect(reasoning).toEqual([1, 2, 3].map((step) => `reasoning ${step}: run step ${step}`));

    const messages = (await store.load(id))?.messages ?? [];
    expect(messages).toEqual(session.messages);
    expectOneEpisodeWithoutGapsOrDuplicates(messages);
  });
});

function expectOneEpisodeWithoutGapsOrDuplicates(messages: readonly Message[]) {
  expect(messages.filter((message) => message.role === 'user')).toHaveLength(1);
  const assistants = messages.filter((message) => message.role === 'assistant');
  expect(assistants).toHaveLength(TOOL_STEPS + 1);
  const calls = assistants.flatMap((message) => toolCallsOf(message).map((call) => call.id));
  expect(calls).toEqual(Array.from({ length: TOOL_STEPS }, (_, index) => `call_${index + 1}`));
  const results = messages.filter((message): message is ToolMessage => message.role === 'tool');
  expect(results.map((message) => message.toolCallId)).toEqual(calls);
  expect(messages.map((message) => message.role)).toEqual([
    'user',
    ...Array.from({ length: TOOL_STEPS }, () => ['assistant', 'tool']).flat(),
    'assistant',
  ]);
}
