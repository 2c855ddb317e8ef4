/**
 * A one-provider agent (core + @episodic/providers/openai + the `openai` SDK) as an
 * application would bundle it with esbuild, for the browser or for Node, from the
 * built packages (their runtime entries, the `bundle` folders, as `npm test` builds them first).
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The agent: one episode against an OpenAI-compatible Responses endpoint at `baseURL`, its result on `globalThis.agentResult`. */
export function agentSource(baseURL: string): string {
  return `import { Agent, createTokenCounter } from '@episodic/core';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import OpenAI from 'openai';

const client = new OpenAI({ apiKey: 'sk-bundle-test', baseURL: ${baseURL}, maxRetries: 0, dangerouslyAllowBrowser: true });
const model = createOpenAIResponsesAdapter({ model: 'gpt-5', client });
const session = await new Agent({ model, system: 'Be terse.' }).session();
const result = await session.send('Say hello.');
globalThis.agentResult = { text: result.text, inputTokens: session.totals.inputTokens, tokens: createTokenCounter().countText('hello world') };
`;
}

/** Bundles the agent: minified ESM for the browser, or for Node with the edge build (`edge-light`: the byte bound) so no WASM file has to travel with it. */
export async function bundleAgent(platform: 'browser' | 'node', baseURL: string): Promise<string> {
  const result = await build({
    stdin: { contents: agentSource(baseURL), resolveDir: repoRoot, sourcefile: 'agent.js', loader: 'js' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform,
    conditions: platform === 'node' ? ['edge-light'] : [],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
