/**
 * Shared pieces of the native context-management suites: tools whose results are big
 * enough to pass the providers' documented thresholds, and a crash that keeps exactly
 * what the session store had on disk when a tool started (the step after a compaction
 * response is persisted, before the next model call).
 */
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentTool } from '@episodic/core';

/** A CI log of `lines` lines: about 6 characters, 1.6 server tokens (JSON characters / 4), per line more than 20. */
export function ciLog(lines: number): string {
  return Array.from({ length: lines }, (_, line) => `line ${line}: step passed`).join('\n');
}

/** About 60,000 tokens by the servers' estimate: past the 50,000 floor of Anthropic compaction. */
export const BIG_LOG = ciLog(10_000);

/** `read_log` answers with a log of `lines` lines ({@link BIG_LOG} by default). */
export function readLogTool(log = BIG_LOG): AgentTool {
  return {
    spec: { name: 'read_log', description: 'Reads the CI log.', inputSchema: { type: 'object', properties: {} } },
    execute: async () => ({ content: log }),
  };
}

/**
 * `note`: on its first call copies the store's directory (what a crash would leave) to
 * a new one and then hangs until the run is aborted, as a process killed there would.
 */
export function crashingNote(directory: string): { tool: AgentTool; snapshot: Promise<string> } {
  let resolve: (copy: string) => void = () => {};
  const snapshot = new Promise<string>((done) => (resolve = done));
  let calls = 0;
  const tool: AgentTool = {
    spec: { name: 'note', description: 'Writes a note.', inputSchema: { type: 'object', properties: {} } },
    async execute(_args, { signal }) {
      calls += 1;
      if (calls > 1) return { content: 'noted' };
      const copy = await mkdtemp(join(tmpdir(), 'episodic-crashed-'));
      // What a killed process leaves, less its lock (a dead owner's lock is taken over anyway).
      await cp(directory, copy, { recursive: true, filter: (source) => !source.endsWith('.lock') });
      resolve(copy);
      return new Promise<{ content: string }>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    },
  };
  return { tool, snapshot };
}
