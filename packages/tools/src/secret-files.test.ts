import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileTool } from './read-file.js';
import { searchTextTool } from './search-text.js';
import { secretPatternOf } from './secret-files.js';

let root: string;
const context = () => ({ signal: new AbortController().signal, toolCallId: 'call_1' });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'episodic-secrets-'));
  await writeFile(join(root, '.env'), 'OPENAI_API_KEY=sk-secret-value\n');
  await writeFile(join(root, '.env.example'), 'OPENAI_API_KEY=\n');
  await writeFile(join(root, 'server.key'), 'sk-secret-value\n');
  await writeFile(join(root, 'config.ts'), 'export const key = process.env.OPENAI_API_KEY; // sk-secret-value docs\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('secret files', () => {
  it('recognises credentials files by name, not templates', () => {
    expect(secretPatternOf('.env')).toBe('.env');
    expect(secretPatternOf('deploy/.env.production')).toBe('.env.*');
    expect(secretPatternOf('certs/server.pem')).toBe('*.pem');
    expect(secretPatternOf('.env.example')).toBeUndefined();
    expect(secretPatternOf('src/environment.ts')).toBeUndefined();
    expect(secretPatternOf('.env', false)).toBeUndefined();
  });

  it('recognises them in any case, and git, direnv and cloud credentials', () => {
    expect(secretPatternOf('.ENV')).toBe('.env');
    expect(secretPatternOf('deploy/.Env.Production')).toBe('.env.*');
    expect(secretPatternOf('certs/SERVER.PEM')).toBe('*.pem');
    expect(secretPatternOf('.envrc')).toBe('.envrc');
    expect(secretPatternOf('.git-credentials')).toBe('.git-credentials');
    expect(secretPatternOf('home/.aws/credentials')).toBe('.aws/credentials');
    expect(secretPatternOf('.aws/credentials')).toBe('.aws/credentials');
    expect(secretPatternOf('gcp/credentials.json')).toBe('credentials.json');
    expect(secretPatternOf('docs/credentials')).toBeUndefined();
    expect(secretPatternOf('.ENV.EXAMPLE')).toBeUndefined();
  });

  it('read_file refuses them with a clear error and never returns their content', async () => {
    const tool = readFileTool({ root });
    const error = await tool.execute({ path: '.env' }, context()).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('looks like a secrets file');
    expect((error as Error).message).not.toContain('sk-secret-value');
    expect((await tool.execute({ path: '.env.example' }, context())).content).toContain('OPENAI_API_KEY=');
  });

  it('read_file reads them when the protection is turned off', async () => {
    const tool = readFileTool({ root, secretFiles: false });
    expect((await tool.execute({ path: '.env' }, context())).content).toContain('sk-secret-value');
  });

  it('search_text skips them in a directory and refuses them by name', async () => {
    const tool = searchTextTool({ root });
    const found = (await tool.execute({ pattern: 'sk-secret', path: '.' }, context())).content;
    expect(found).toContain('config.ts:1:');
    expect(found).not.toContain('server.key');
    await expect(tool.execute({ pattern: 'sk', path: 'server.key' }, context())).rejects.toThrow(/secrets file/);
  });
});
