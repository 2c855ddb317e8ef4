// The `openai` SDK loads with the first request, not with the entry point: importing
// the adapters in a fresh process must not load it (checked in child processes, on
// the built dist, since this process's module graph is shared with other tests).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = (path: string) => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));

// A module resolve hook that writes each `openai` specifier the process resolves to stderr.
const hook = `data:text/javascript,import { register } from "node:module"; register("data:text/javascript,export async function resolve(s,c,n){ if (s===\\"openai\\"||s.startsWith(\\"openai/\\")) process._rawDebug(\\"RESOLVED \\"+s); return n(s,c); }");`;

/** The `openai` specifiers a fresh process resolves while running `script`. */
function openaiResolved(script: string): string[] {
  const child = spawnSync(process.execPath, ['--import', hook, '--input-type=module', '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`);
  return child.stderr.split('\n').filter((line) => line.startsWith('RESOLVED '));
}

describe('the openai SDK is loaded on the first request', () => {
  const entries = `
    const openai = await import(${JSON.stringify(dist('openai/index.js'))});
    const compatible = await import(${JSON.stringify(dist('openai-compatible/index.js'))});
    const adapters = [
      openai.createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' }),
      openai.createOpenAIChatAdapter({ model: 'gpt-4.1', apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' }),
      compatible.createOpenAICompatibleAdapter({ provider: 'deepseek', model: 'deepseek-chat', apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' }),
    ];`;

  it('not by importing the OpenAI and OpenAI-compatible entry points, nor by creating adapters', () => {
    expect(openaiResolved(entries)).toEqual([]);
  });

  it('by the first request (the check above can see the SDK load)', () => {
    const firstCall = `${entries}
      const events = adapters[0].stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
      try { for await (const _ of events) {} } catch {}`;
    expect(openaiResolved(firstCall)).toContain('RESOLVED openai');
  });

  it('a missing API key is still reported when the adapter is created', async () => {
    const { createOpenAIResponsesAdapter } = await import('../openai/index.js');
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => createOpenAIResponsesAdapter({ model: 'gpt-5' })).toThrow(/OPENAI_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
