/**
 * Runs one file of examples/basics as written (through vitest, so `@episodic/*`
 * resolve to the sources) with the offline model, and returns what it logged.
 */
import { pathToFileURL } from 'node:url';
import { vi } from 'vitest';

/** The lines the example logged, each `console.log` call's arguments joined by spaces. */
export async function runExample(name: string, env: Record<string, string> = {}): Promise<string[]> {
  vi.stubEnv('ANTHROPIC_API_KEY', ''); // offline: the examples use their scripted model without a key
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await import(pathToFileURL(new URL(`../../examples/basics/${name}.ts`, import.meta.url).pathname).href);
    return log.mock.calls.map((args) => args.map(String).join(' '));
  } finally {
    log.mockRestore();
    vi.unstubAllEnvs();
  }
}
