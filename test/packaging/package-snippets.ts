/**
 * One snippet per published package, as an application that installs that package
 * alone would write it: type-checked against the package's declarations in an app
 * made by `tsc --init` (strict, `exactOptionalPropertyTypes`, `skipLibCheck: false`),
 * and run where it needs no server.
 */

/** What an app that installs one package alone adds from the registry, writes and expects. */
export interface PackageSnippet {
  /** Registry packages the app installs beside it (peers it chose). */
  extra: Record<string, string>;
  code: string;
  /** What running it prints; undefined: type-checked only (it needs a server or a key). */
  prints?: RegExp;
  /** Packages that must not be installed. */
  absent?: string[];
  /**
   * Errors tsc reports in a dependency's own declarations, not ours (a bug of theirs under
   * `tsc --init`'s options): the file they sit in. Any other error fails the check.
   */
  upstreamErrors?: RegExp;
}

const node = { '@types/node': '^20.19.0' };

export const packageSnippets: Record<string, PackageSnippet> = {
  '@episodic/core': {
    extra: { ...node, zod: '^4.1.0' },
    code: `import { Agent } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';

const model = scriptedModel({ steps: [{ text: 'Paris.' }] });
const { text } = await new Agent({ model, context: { budget: Number(process.env.BUDGET ?? 16_000) } }).run('Capital of France?');
console.log(text);
`,
    prints: /^Paris\.\n$/,
  },
  '@episodic/tools': {
    extra: { ...node, zod: '^4.1.0' },
    code: `import { Agent } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { defineTool, fileTools, toOpenAIStrictSchema } from '@episodic/tools';
import { z } from 'zod';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const model = scriptedModel({ steps: [{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: '5' }] });
const agent = new Agent({ model, tools: [add, ...fileTools({ root: process.cwd() })] });
const { text, steps } = await agent.run('2 + 3?');
console.log(text, steps, Object.keys(toOpenAIStrictSchema(add.spec.inputSchema)).length > 0);
`,
    prints: /^5 2 true\n$/,
    absent: ['@episodic/providers', '@modelcontextprotocol/sdk'],
  },
  '@episodic/ai-sdk': {
    // An AI SDK app adding packing to its model: the AI SDK is the app's own (a peer).
    extra: { ...node, ai: '^7.0.173' },
    // The AI SDK's own declarations do not type-check under exactOptionalPropertyTypes with
    // skipLibCheck false (its Tool type, in @ai-sdk/provider-utils); ours must.
    upstreamErrors: /node_modules\/(?:@ai-sdk\/[^/]+|ai)\/dist\//,
    code: `import { episodicPacking, fromAISDK } from '@episodic/ai-sdk';
import { wrapLanguageModel } from 'ai';

/** An AI SDK loop's model, every call packed. */
export function packed(model: Parameters<typeof wrapLanguageModel>[0]['model']) {
  const packing = episodicPacking({ budget: Number(process.env.BUDGET ?? 16_000) });
  return { model: wrapLanguageModel({ model, middleware: packing }), tools: packing.tools };
}

/** An AI SDK model under an Episodic agent. */
export const adapter = (model: Parameters<typeof fromAISDK>[0]) => fromAISDK(model);
`,
  },
  '@episodic/providers': {
    // An OpenAI-only app: no Anthropic or Google SDK installed.
    extra: { ...node, openai: '^6.30.1' },
    code: `import { Agent } from '@episodic/core';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';

const model = createOpenAIResponsesAdapter({
  model: 'gpt-5',
  apiKey: process.env.OPENAI_API_KEY ?? 'sk-not-used-offline',
  baseURL: process.env.OPENAI_BASE_URL,
});
console.log(new Agent({ model }).budget > 0);
`,
    prints: /^true\n$/,
    absent: ['@anthropic-ai/sdk', '@google/genai'],
  },
  '@episodic/postgres': {
    extra: node,
    code: `import { openPGlite, PostgresSessionStore } from '@episodic/postgres';

export const server = () => new PostgresSessionStore({ connectionString: process.env.DATABASE_URL, schema: process.env.DB_SCHEMA });
const store = new PostgresSessionStore({ pglite: await openPGlite() });
await store.migrate();
console.log((await store.load('none')) === undefined);
await store.close();
`,
    prints: /^true\n$/,
  },
  '@episodic/dbos': {
    extra: node,
    code: `import { EpisodesClient } from '@episodic/dbos';

export const client = () => EpisodesClient.create({ databaseUrl: process.env.DATABASE_URL ?? '', schema: process.env.DBOS_SCHEMA });
`,
  },
  '@episodic/restate': {
    extra: node,
    code: `import { EpisodesClient } from '@episodic/restate';

export const client = new EpisodesClient(process.env.RESTATE_URL ?? 'http://127.0.0.1:8080');
`,
    // @restatedev/restate-sdk-core's JsonSerde does not match its own Serde interface under
    // exactOptionalPropertyTypes (serde_api.d.ts, TS2420): an app that checks library
    // declarations with tsc --init's options meets it with the Restate SDK alone.
    upstreamErrors: /^node_modules\/@restatedev\/restate-sdk-core\/dist\/serde_api\.d\.ts\(/,
  },
  '@episodic/chat': {
    extra: node,
    code: `import { createChatHandler } from '@episodic/chat';
import { Agent } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';

const chat = createChatHandler({ agent: new Agent({ model: scriptedModel({ steps: [{ text: 'Hi.' }] }) }), allowedHosts: process.env.CHAT_HOSTS?.split(',') });
const body = JSON.stringify({ id: 'c1', message: { role: 'user', parts: [{ type: 'text', text: 'Hello' }] } });
const response = await chat(new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
console.log(response.status, (await response.text()).includes('"delta":"Hi."'));
`,
    prints: /^200 true\n$/,
  },
  '@episodic/cli': {
    extra: node,
    code: `import { ExitCode } from '@episodic/cli';

console.log(typeof ExitCode);
`,
    prints: /^object\n$/,
  },
};
