/**
 * A worker started as a standby (`config.standby`): it loads its code and connects,
 * prints `standby`, and takes work only once the fault run writes `go` on its stdin.
 * A SIGTERM while it waits ends it at once (it holds nothing).
 */
import type { WorkerConfig } from './worker-config.js';

/** Returns at once for a worker that is not a standby; else waits for `go`. */
export async function awaitGo(config: WorkerConfig): Promise<void> {
  if (!config.standby) return;
  const quit = () => process.exit(0);
  process.once('SIGTERM', quit);
  process.stdout.write('standby\n');
  await new Promise<void>((resolve) => {
    let input = '';
    process.stdin.on('data', (chunk: Buffer) => {
      input += chunk.toString();
      if (input.includes('go\n')) resolve();
    });
  });
  // An open stdin would keep the process alive after its work loop ends.
  process.stdin.destroy();
  process.off('SIGTERM', quit);
}
