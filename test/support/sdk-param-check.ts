/**
 * A strict type check of captured wire bodies against the official SDKs' param types:
 * each body is written as an object literal `satisfies` its type in one generated source
 * file, which the TypeScript compiler checks with the installed SDKs' declarations. So a
 * field the param type does not name (excess property), a `null` or `""` where the type
 * forbids it, or a wrong literal fails the check, as it would in a typed client.
 */
import { resolve } from 'node:path';
import ts from 'typescript';

/** The param types a captured body can be checked against, by the SDK module that declares them. */
const paramTypes = {
  'anthropic-beta': { module: '@anthropic-ai/sdk/resources/beta/messages/messages', type: 'MessageCreateParamsStreaming' },
  'anthropic-count': { module: '@anthropic-ai/sdk/resources/beta/messages/messages', type: 'MessageCountTokensParams' },
  'openai-responses': { module: 'openai/resources/responses/responses', type: 'ResponseCreateParamsStreaming' },
  'openai-compact': { module: 'openai/resources/responses/responses', type: 'ResponseCompactParams' },
  'openai-chat': { module: 'openai/resources/chat/completions/completions', type: 'ChatCompletionCreateParamsStreaming' },
  // Gemini's config and tools use TypeScript enums, which a JSON literal cannot name: its contents are checked.
  'google-contents': { module: '@google/genai', type: 'Content' },
} as const;

/** Which param type a body is checked against. */
export type ParamKind = keyof typeof paramTypes;

/** A captured body and the param type it must satisfy. */
export interface CapturedBody {
  kind: ParamKind;
  body: unknown;
  /** Names the body in error messages. */
  label?: string;
}

const root = resolve(import.meta.dirname, '..', '..');

/** The type errors of `bodies` against their param types; empty when every body type-checks. */
export function sdkParamErrors(bodies: readonly CapturedBody[]): string[] {
  const file = resolve(root, 'test', '.sdk-param-check.ts');
  const kinds = [...new Set(bodies.map((entry) => entry.kind))];
  const imports = kinds.map((kind) => `import type { ${paramTypes[kind].type} as T_${kind.replaceAll('-', '_')} } from '${paramTypes[kind].module}';`);
  const lines = bodies.map(
    (entry, index) =>
      `// ${entry.label ?? `body ${index}`}\nexport const body${index} = ${JSON.stringify(entry.body, null, 1)} satisfies ${entry.kind === 'google-contents' ? 'Array<T_google_contents>' : `T_${entry.kind.replaceAll('-', '_')}`};`,
  );
  const source = [...imports, ...lines].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) =>
    resolve(name) === file ? ts.createSourceFile(name, source, language) : read(name, language, onError);
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => resolve(name) === file || exists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return text;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const label = source.split('\n').slice(0, line + 1).findLast((candidate) => candidate.startsWith('// '));
    return `${label?.slice(3) ?? '?'} (line ${line + 1}): ${text}`;
  });
}
