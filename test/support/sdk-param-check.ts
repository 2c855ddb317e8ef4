/**
 * A strict type check of captured wire bodies against the official SDKs' param types:
 * each body is written as an object literal `satisfies` its type in one generated source
 * file, which the TypeScript compiler checks with the installed SDKs' declarations. So a
 * field the param type does not name (excess property), a `null` or `""` where the type
 * forbids it, or a wrong literal fails the check, as it would in a typed client.
 * An OpenAI body is checked against both majors the peer range takes: the installed
 * `openai` 6 and `openai` 7 (the `openai7` alias), so a wire body is valid for each.
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

/** The newer `openai` major (Node 22 and up, not installed as `openai`): its modules under the alias. */
const openai7 = (module: string) => module.replace(/^openai\//, 'openai7/');

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
  const alias = (kind: ParamKind, major = '') => `T_${kind.replaceAll('-', '_')}${major}`;
  const imports = kinds.flatMap((kind) => {
    const { module, type } = paramTypes[kind];
    const installed = `import type { ${type} as ${alias(kind)} } from '${module}';`;
    return module.startsWith('openai/') ? [installed, `import type { ${type} as ${alias(kind, '_7')} } from '${openai7(module)}';`] : [installed];
  });
  const lines = bodies.flatMap((entry, index) => {
    const label = entry.label ?? `body ${index}`;
    const literal = JSON.stringify(entry.body, null, 1);
    if (entry.kind === 'google-contents') return [`// ${label}\nexport const body${index} = ${literal} satisfies Array<${alias(entry.kind)}>;`];
    const checks = [`// ${label}\nexport const body${index} = ${literal} satisfies ${alias(entry.kind)};`];
    if (paramTypes[entry.kind].module.startsWith('openai/'))
      checks.push(`// ${label} (openai 7)\nexport const body${index}_7 = ${literal} satisfies ${alias(entry.kind, '_7')};`);
    return checks;
  });
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

/** The param type of a request to a loopback server, by its path; undefined for a path no SDK type covers. */
function kindOfPath(path: string): ParamKind | undefined {
  const route = path.split('?')[0] ?? '';
  if (route.endsWith('/messages/count_tokens')) return 'anthropic-count';
  if (route.endsWith('/messages')) return 'anthropic-beta';
  if (route.endsWith('/responses/compact')) return 'openai-compact';
  if (route.endsWith('/responses')) return 'openai-responses';
  if (route.endsWith('/chat/completions')) return 'openai-chat';
  return undefined;
}

/**
 * The bodies a loopback server received, each with the param type its path calls for,
 * ready for {@link sdkParamErrors}. Requests the test wrote by hand (no SDK client sent
 * them: no `x-stainless-lang` header) are left out: they test the server, not a builder.
 */
export function capturedRequests(
  requests: readonly { path: string; body: unknown; headers: Record<string, string> }[],
  label: string,
): CapturedBody[] {
  return requests.flatMap((request, index) => {
    const kind = kindOfPath(request.path);
    if (!kind || request.headers['x-stainless-lang'] === undefined) return [];
    return [{ kind, body: request.body, label: `${label} ${index} ${request.path}` }];
  });
}
