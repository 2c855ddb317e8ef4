/**
 * Public option types accept `process.env.X` (a `string | undefined`) on their optional
 * fields under `exactOptionalPropertyTypes`, which `tsc --init` turns on: before, passing
 * one failed with TS2379. Checked against the built declarations, as an app sees them.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const written: string[] = [];

const app = `
import { Agent } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { EpisodesClient } from '@episodic/dbos';
import { PostgresSessionStore, PostgresReplayCache } from '@episodic/postgres';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createGoogleAdapter } from '@episodic/providers/google';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';

const env = process.env;
export const stores = [
  new PostgresSessionStore({ connectionString: env.DATABASE_URL, schema: env.DB_SCHEMA }),
  new FileSessionStore({ directory: env.SESSIONS ?? './sessions', sync: env.SYNC === undefined ? undefined : env.SYNC === '1' }),
];
export const cache = new PostgresReplayCache({ connectionString: env.DATABASE_URL });
export const models = [
  createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL }),
  createAnthropicAdapter({ model: 'claude-sonnet-4-6', apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL }),
  createGoogleAdapter({ model: 'gemini-2.5-flash', apiKey: env.GEMINI_API_KEY }),
];
export const agent = new Agent({ model: scriptedModel({ steps: [] }), system: env.SYSTEM_PROMPT, budget: env.BUDGET ? Number(env.BUDGET) : undefined });
export const session = () => agent.session({ id: env.SESSION_ID });
export const client = () => EpisodesClient.create({ databaseUrl: env.DATABASE_URL ?? '', schema: env.DBOS_SCHEMA });
`;

describe('public options under exactOptionalPropertyTypes', () => {
  afterAll(async () => {
    for (const file of written) await rm(file, { force: true });
  });

  it('take process.env values (string | undefined) on optional fields', async () => {
    const folder = new URL('test-output/', root);
    await mkdir(folder, { recursive: true });
    const file = fileURLToPath(new URL(`exact-optional-${randomBytes(4).toString('hex')}.ts`, folder));
    written.push(file);
    await writeFile(file, app);
    const program = ts.createProgram([file], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: true,
      types: ['node'],
      noEmit: true,
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? `line ${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(errors).toEqual([]);
  }, 120_000);
});
