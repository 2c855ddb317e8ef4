/**
 * The public API of @episodic/providers is chosen on purpose: named exports only,
 * each with JSDoc, no shared helper passed through; what tests and sibling
 * packages need beyond it is in @episodic/providers/internal.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as anthropic from '@episodic/providers/anthropic';
import * as google from '@episodic/providers/google';
import * as internal from '@episodic/providers/internal';
import * as openai from '@episodic/providers/openai';
import * as openaiCompatible from '@episodic/providers/openai-compatible';
import * as providers from '@episodic/providers';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const source = 'packages/providers/src/index.ts';

/**
 * The exported names of source modules without JSDoc on their declaration. Only
 * this package's own sources are loaded (`noResolve`), not the SDKs' types: the
 * declarations are all here, and loading the SDKs would take most of a minute.
 */
function undocumented(files: string[]): string[] {
  // The schema normalisers are core's (`@episodic/core/schema`), re-exported here: their sources are loaded too.
  const sourcesOf = (dir: string) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => join(dir, name));
  const sources = [...sourcesOf('packages/providers/src'), ...sourcesOf('packages/core/src/schema')];
  const program = ts.createProgram(sources, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    paths: { '@episodic/core/schema': ['./packages/core/src/schema/index.ts'] },
    noResolve: true,
    types: [],
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  return files.flatMap((file) =>
    checker
      .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!)
      .filter((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '';
      })
      .map((symbol) => `${file}: ${symbol.name}`),
  );
}

describe('the public API of @episodic/providers', () => {
  it('exports named symbols only and passes no shared helper through', () => {
    const text = readFileSync(source, 'utf8');
    expect(text).not.toMatch(/export \*/);
    const fromShared = [...text.matchAll(/export (?:type )?\{([^}]*)\} from '\.\/shared\/[^']+'/g)].flatMap((match) =>
      (match[1] ?? '').split(',').map((name) => name.replace(/\btype\b/, '').trim()).filter(Boolean),
    );
    // ToolCallIdRule is the type of a public profile field (AnthropicProfileFields.toolCallId).
    expect(fromShared.sort()).toEqual(['AdapterWarning', 'MissingApiKeyError', 'PreparedRequest', 'ProviderAdapter', 'ToolCallIdRule']);
  });

  it('has these runtime values (a change here is a change of the public API)', () => {
    expect(Object.keys(providers).sort()).toEqual([
      'MissingApiKeyError',
      'UnsupportedSchemaError',
      'builtinProfiles',
      'checkGeminiSchema',
      'checkOpenAIStrictSchema',
      'compatibleHosts',
      'findModelFamily',
      'modelFamilies',
      'normalizeModelId',
      'resolveProfile',
      'toGeminiSchema',
      'toOpenAIStrictSchema',
    ]);
    expect(Object.keys(openai).sort()).toEqual(['ChatToolsNeedResponsesError', 'createOpenAIChatAdapter', 'createOpenAIResponsesAdapter']);
    expect(Object.keys(anthropic)).toEqual(['createAnthropicAdapter']);
    expect(Object.keys(google)).toEqual(['createGoogleAdapter']);
    expect(Object.keys(openaiCompatible)).toEqual(['createOpenAICompatibleAdapter']);
    for (const name of Object.keys(internal)) expect(Object.keys(providers)).not.toContain(name);
  });

  /** The npm packages a bundle of `entry` pulls in (esbuild's metafile, nothing written). */
  async function packagesIn(entry: string): Promise<string[]> {
    const result = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', logLevel: 'silent' });
    const names = Object.keys(result.metafile.inputs).flatMap((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? []);
    return [...new Set(names)];
  }

  // Each vendor SDK is an optional peer: an application loads only the one it imports.
  it('loads no vendor SDK from the main entry, and only its own from each provider entry', { timeout: 60_000 }, async () => {
    const sdks = ['openai', '@anthropic-ai/sdk', '@google/genai'];
    const loaded = async (entry: string) => (await packagesIn(`packages/providers/src/${entry}`)).filter((name) => sdks.includes(name));
    expect(await loaded('index.ts')).toEqual([]);
    expect(await loaded('internal.ts')).toEqual([]);
    expect(await loaded('openai/index.ts')).toEqual(['openai']);
    expect(await loaded('openai-compatible/index.ts')).toEqual(['openai']);
    expect(await loaded('anthropic/index.ts')).toEqual(['@anthropic-ai/sdk']);
    expect(await loaded('google/index.ts')).toEqual(['@google/genai']);
  });

  // Type-checking the sources (with the three SDKs' types) takes a while on a busy machine.
  it('documents every export, public and internal', { timeout: 120_000 }, () => {
    expect(undocumented([source, 'packages/providers/src/internal.ts'])).toEqual([]);
  });
});
