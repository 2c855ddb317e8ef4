/**
 * Runs crash-writer-child.mjs and SIGKILLs it once it holds the session: a writer
 * process that died mid-episode, its lease left behind.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('./crash-writer-child.mjs', import.meta.url));

/** Spawns the child with `config`, waits until it holds the lease, and kills it. */
export async function crashWriterProcess(config: Record<string, unknown>, builtEntry: string): Promise<void> {
  const built = fileURLToPath(new URL(`../../${builtEntry}`, import.meta.url));
  if (!existsSync(built)) throw new Error(`the crash writer imports the built ${builtEntry}: run \`npx tsc -b\` first`);
  const worker = spawn(process.execPath, [child, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) => worker.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    worker.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('held\n')) resolve();
    });
    worker.stderr.on('data', (chunk) => (output += chunk));
    worker.on('exit', () => reject(new Error(`the crash writer exited before holding the session: ${output}`)));
  });
  worker.kill('SIGKILL');
  if ((await exited) !== 'SIGKILL') throw new Error(`the crash writer was not killed: ${output}`);
}
