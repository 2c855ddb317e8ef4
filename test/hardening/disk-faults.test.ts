/**
 * Real disk faults under the file store: a full disk (a 64 KiB tmpfs), a read-only
 * file system (the tmpfs remounted read-only) and a directory the writer may not
 * write (a child process running as `nobody`). Mounting needs root; without it these
 * tests fail and say so, they never pass without the fault.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, type AgentTool, StoreWriteError, type ToolMessage } from '@episodic/core';
import { FileSessionStore, readTranscript } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';

const builtNodeEntry = fileURLToPath(new URL('../../packages/core/dist/node.js', import.meta.url));
const mounted: string[] = [];

/** A fresh tmpfs of `size` at a new temporary directory. */
async function smallDisk(size: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', directory], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(
      `cannot mount a tmpfs at ${directory} (${(error as Error).message.split('\n')[0]}): these disk-fault tests ` +
        'need root (run the tests as root, or in a container with CAP_SYS_ADMIN); they do not pass without the real fault',
    );
  }
  mounted.push(directory);
  return directory;
}

afterEach(async () => {
  for (const directory of mounted.splice(0)) {
    execFileSync('umount', [directory]);
    await rm(directory, { recursive: true, force: true });
  }
});

/**
 * The built file store bundled into one file in a world-readable temporary folder:
 * `nobody` may not be able to read the clone (a `git clone` into a 0700 home), so the
 * child must not import from it.
 */
async function bundleForNobody(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'episodic-nobody-'));
  await chmod(folder, 0o755);
  const file = join(folder, 'file-session-store.mjs');
  await build({
    stdin: { contents: `export { FileSessionStore } from ${JSON.stringify(builtNodeEntry)};`, loader: 'js', resolveDir: dirname(builtNodeEntry) },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: file,
    logLevel: 'silent',
  });
  await chmod(file, 0o644);
  const readable = spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(file)}, 4)`], {
    uid: 65534,
    gid: 65534,
    cwd: '/',
  });
  if (readable.status !== 0) {
    await rm(folder, { recursive: true, force: true });
    const reason = /^\w*Error.*$/m.exec(readable.stderr.toString())?.[0] ?? `exit ${readable.status}`;
    throw new Error(
      `nobody (uid 65534) cannot read ${file} (${reason}): the EACCES test needs ` +
        `a temporary directory (${tmpdir()}) that other users can read; set TMPDIR to one`,
    );
  }
  return file;
}

/** A tool whose result is `bytes` long, so a batch of them crosses the free space. */
function bulkyTool(bytes: number): AgentTool {
  return {
    spec: { name: 'work', description: 'Does work.', inputSchema: { type: 'object' } },
    execute: async () => ({ content: 'x'.repeat(bytes) }),
  };
}

function resultsPerCall(messages: readonly { role: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const id = (message as ToolMessage).toolCallId;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

describe('file store under real disk faults', () => {
  it('a full disk fails the step with StoreWriteError, leaves the file as it was, and a resume saves each result once', async () => {
    // Six amounts of free space, so the batch write breaks at different lines.
    for (let trial = 0; trial < 6; trial += 1) {
      const directory = await smallDisk('64k');
      const store = new FileSessionStore({ directory });
      const calls = [1, 2, 3, 4].map((n) => ({ id: `c${n}`, name: 'work', args: { n } }));
      const model = scriptedModel({ steps: [{ toolCalls: calls }, { text: 'done' }] });
      const agent = new Agent({ model, tools: [bulkyTool(6_000)], store, context: { budget: 100_000 } });
      const session = await agent.session({ id: 's' });
      const free = 8_192 + trial * 2_048;
      await writeFile(join(directory, 'filler'), Buffer.alloc(60 * 1024 - free));

      const error = await session.send('go').catch((caught: unknown) => caught);
      expect(error, `trial ${trial}`).toBeInstanceOf(StoreWriteError);
      expect(error).toMatchObject({ errno: 'ENOSPC', cause: { code: 'ENOSPC' } });
      const onDisk = await readTranscript(store.transcriptPath('s'));
      expect(onDisk.map((message) => message.role)).toEqual(['user', 'assistant']);

      await rm(join(directory, 'filler'));
      expect((await session.resume()).text).toBe('done');
      const messages = await readTranscript(store.transcriptPath('s'));
      expect([...resultsPerCall(messages).values()]).toEqual([1, 1, 1, 1]);
      execFileSync('umount', [directory]);
      mounted.splice(mounted.indexOf(directory), 1);
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('a read-only file system gives StoreWriteError (EROFS) for the transcript and the pack state, and nothing changes', async () => {
    const directory = await smallDisk('1m');
    const store = new FileSessionStore({ directory });
    const model = scriptedModel({ steps: [{ text: 'first' }, { text: 'second' }] });
    const session = await new Agent({ model, store, context: { budget: 100_000 } }).session({ id: 's' });
    await session.send('one');
    const before = await readFile(store.transcriptPath('s'));
    execFileSync('mount', ['-o', 'remount,ro', directory]);

    const error = await session.send('two').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreWriteError);
    expect(error).toMatchObject({ errno: 'EROFS', message: expect.stringMatching(/read-only \(EROFS\)/) });
    await expect(store.saveState('s', { version: 1, evictedEpisodes: 0 })).rejects.toMatchObject({ errno: 'EROFS' });
    expect(await readFile(store.transcriptPath('s'))).toEqual(before);

    execFileSync('mount', ['-o', 'remount,rw', directory]);
    expect((await session.send('two')).text).toBe('second');
  });

  it('a directory the process may not write gives StoreWriteError (EACCES)', async () => {
    expect(existsSync(builtNodeEntry), 'the child imports the built @episodic/core/node: run `npx tsc -b`').toBe(true);
    const childStore = await bundleForNobody();
    const directory = await smallDisk('1m');
    const store = new FileSessionStore({ directory });
    await store.append('s', [{ role: 'user', content: 'hello' }]);
    // Root ignores permission bits: the writer runs as nobody, over a directory and file owned by root (0755, 0644).
    const script =
      `const { FileSessionStore } = await import(${JSON.stringify(childStore)});` +
      `const store = new FileSessionStore({ directory: ${JSON.stringify(directory)} });` +
      "const error = await store.append('s', [{ role: 'user', content: 'more' }]).then(() => undefined, (caught) => caught);" +
      'console.log(JSON.stringify({ name: error?.name, errno: error?.errno, message: error?.message }));';
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      uid: 65534,
      gid: 65534,
      encoding: 'utf8',
      cwd: tmpdir(),
    });
    await rm(dirname(childStore), { recursive: true, force: true });
    expect(child.stderr).toBe('');
    const reported = JSON.parse(child.stdout) as { name: string; errno: string; message: string };
    expect(reported).toMatchObject({ name: 'StoreWriteError', errno: 'EACCES' });
    expect(reported.message).toMatch(/permission denied \(EACCES\)\. Nothing was written/);
    expect((await store.load('s'))?.messages).toEqual([{ role: 'user', content: 'hello' }]);
  });
});
