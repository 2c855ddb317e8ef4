/**
 * Inputs for the fuzz test: seeded mutations of a real-shaped transcript (bytes and
 * JSON fields), and `episodic` command lines built from valid and broken flags, files
 * and values. Pure generators; the test decides what counts as a pass.
 */
import fc from 'fast-check';
import { transcriptText, twoEpisodes } from '../../packages/cli/src/testing/cli-harness.js';

/** The transcript every mutation starts from (11 lines, two episodes, tool calls). */
export const baseTranscript = transcriptText(twoEpisodes);

const deep = (depth: number) =>
  `{"role":"assistant","content":[{"type":"tool-call","id":"d","name":"t","args":${'['.repeat(depth)}${']'.repeat(depth)}}]}`;

/** Whole lines worth planting: each breaks one rule the readers enforce (or is fine). */
const specialLines: readonly (string | Buffer)[] = [
  deep(5_000),
  deep(60),
  '{}',
  '[]',
  'null',
  '"just a string"',
  '{"role":"system","content":"late"}',
  '{"role":"tool","toolCallId":"nobody","toolName":"x","content":"orphan"}',
  '{"role":"tool","toolCallId":"call_1","toolName":"get_ci_log","content":"second result"}',
  '{"role":"assistant","content":[{"type":"tool-call","id":"call_2","name":"x","args":{}}]}',
  '{"role":"assistant","content":[{"type":"tool-call","id":"z","name":"x","args":"{not json"}]}',
  `{"role":"user","content":"${'long '.repeat(40_000)}"}`,
  Buffer.concat([Buffer.from('{"role":"user","content":"caf'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]),
  '{"role":"user","content":[{"type":"image","data":"AAAA","mediaType":"image/png"}]}',
  '{"role":"assistant","content":[],"usage":{"inputTokens":-1,"outputTokens":1}}',
  '\u0000\u0000\u0000',
  '   ',
];

/** One change to the transcript bytes. */
export type Mutation =
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'truncate'; at: number }
  | { kind: 'duplicate-line' | 'drop-line'; line: number }
  | { kind: 'swap-lines'; a: number; b: number }
  | { kind: 'plant-line'; line: number; special: number }
  | { kind: 'json-field'; line: number; key: number; value: unknown };

const position = fc.nat({ max: 1_000_000 });

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: position, byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: position, length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: position, bytes: fc.uint8Array({ minLength: 1, maxLength: 6 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: position }),
  fc.record({ kind: fc.constantFrom('duplicate-line' as const, 'drop-line' as const), line: fc.nat(40) }),
  fc.record({ kind: fc.constant('swap-lines' as const), a: fc.nat(40), b: fc.nat(40) }),
  fc.record({ kind: fc.constant('plant-line' as const), line: fc.nat(40), special: fc.nat(specialLines.length - 1) }),
  fc.record({
    kind: fc.constant('json-field' as const),
    line: fc.nat(40),
    key: fc.nat(10),
    value: fc.jsonValue({ maxDepth: 3 }),
  }),
);

/** One to three mutations of the base transcript. */
export const mutatedTranscript: fc.Arbitrary<{ mutations: Mutation[]; bytes: Buffer }> = fc
  .array(mutation, { minLength: 1, maxLength: 3 })
  .map((mutations) => ({ mutations, bytes: mutations.reduce(applyMutation, Buffer.from(baseTranscript)) }));

function applyMutation(bytes: Buffer, change: Mutation): Buffer {
  const at = 'at' in change ? change.at % (bytes.length + 1) : 0;
  switch (change.kind) {
    case 'flip': {
      const copy = Buffer.from(bytes);
      if (copy.length > 0) copy[at % copy.length] = change.byte;
      return copy;
    }
    case 'delete':
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + change.length)]);
    case 'insert':
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(change.bytes), bytes.subarray(at)]);
    case 'truncate':
      return bytes.subarray(0, at);
    default:
      return mutateLines(bytes, change);
  }
}

function mutateLines(bytes: Buffer, change: Mutation): Buffer {
  const lines: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    const end = bytes.indexOf(0x0a, start);
    lines.push(bytes.subarray(start, end === -1 ? bytes.length : end));
    start = end === -1 ? bytes.length : end + 1;
  }
  const pick = (index: number) => (lines.length === 0 ? 0 : index % lines.length);
  switch (change.kind) {
    case 'duplicate-line':
      lines.splice(pick(change.line), 0, lines[pick(change.line)] ?? Buffer.alloc(0));
      break;
    case 'drop-line':
      lines.splice(pick(change.line), 1);
      break;
    case 'swap-lines': {
      const [a, b] = [pick(change.a), pick(change.b)];
      [lines[a], lines[b]] = [lines[b] ?? Buffer.alloc(0), lines[a] ?? Buffer.alloc(0)];
      break;
    }
    case 'plant-line': {
      const special = specialLines[change.special]!;
      lines.splice(pick(change.line), 0, typeof special === 'string' ? Buffer.from(special) : special);
      break;
    }
    case 'json-field':
      lines[pick(change.line)] = withField(lines[pick(change.line)], change.key, change.value);
      break;
  }
  return Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')]));
}

/** The line with one of its fields (or a field of its first content part) set to `value`. */
function withField(line: Buffer | undefined, key: number, value: unknown): Buffer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line?.toString('utf8') ?? '');
  } catch {
    return line ?? Buffer.alloc(0);
  }
  if (typeof parsed !== 'object' || parsed === null) return Buffer.from(JSON.stringify(value));
  const record = parsed as Record<string, unknown>;
  const part = Array.isArray(record.content) ? (record.content[0] as Record<string, unknown> | undefined) : undefined;
  const target = key % 2 === 1 && part && typeof part === 'object' ? part : record;
  const keys = [...Object.keys(target), 'extra'];
  target[keys[key % keys.length]!] = value;
  return Buffer.from(JSON.stringify(record));
}

/** Named files a command line may point at; the test creates them. */
export const fileNames = ['good', 'mutated', 'missing', 'directory', 'empty', 'dev-zero', 'stdin'] as const;
export type FileName = (typeof fileNames)[number];
export const pricingNames = ['pricing-good', 'pricing-bad-json', 'pricing-bad-field', 'pricing-evil', 'dev-zero', 'missing'] as const;

const budgetValues = ['16k', '1.5m', '4000', '0', '-5', 'abc', '1e309', '99999999999999k', ''];
const budgetLists = ['2k,8k', '16k', '1k,1m', '8k,,4k', 'x', '', '0,4k'];
/** Each command's options, with values that are mostly valid and sometimes not. */
const optionsOf: Readonly<Record<string, fc.Arbitrary<string[]>>> = {
  pack: fc.oneof(
    fc.tuple(fc.constantFrom('--budget', '-b'), fc.constantFrom(...budgetValues)),
    fc.tuple(fc.constantFrom('--retention', '-r'), fc.constantFrom('episode', 'tool-episodes', 'all', 'none', 'bogus')),
    fc.tuple(fc.constant('--json')),
  ),
  episodes: fc.oneof(fc.tuple(fc.constant('--json')), fc.tuple(fc.constant('--html'), fc.constantFrom('@report', '@good'))),
  budget: fc.oneof(
    fc.tuple(fc.constantFrom('--budgets', '-b'), fc.constantFrom(...budgetLists)),
    fc.tuple(fc.constantFrom('--retention', '-r'), fc.constantFrom('episode', 'all,none', 'bogus', '')),
    fc.tuple(fc.constantFrom('--model', '-m'), fc.constantFrom('openai/gpt-5', 'claude-sonnet-4-5', 'acme/x', '/')),
    fc.tuple(fc.constant('--pricing'), fc.constantFrom(...pricingNames.map((name) => `@${name}`))),
    fc.tuple(fc.constantFrom('--system', '--tools'), fc.constantFrom('@good', '@dev-zero', '@missing', '@tools')),
    fc.tuple(fc.constant('--html'), fc.constantFrom('@report', '@good', '@directory')),
    fc.tuple(fc.constantFrom('--json', '--progress')),
  ),
  repair: fc.tuple(fc.constant('--dry-run')),
};
/** Flags no command takes, and other noise. */
const junk = fc.constantFrom('--unknown', '-x', '--', '-h', '--json', '--budget');

/**
 * A command line, with placeholders for files (`@name`) the test replaces by paths:
 * mostly a command with one file and its own options (some values broken), sometimes
 * noise: a second file, a flag the command does not take, no command at all.
 */
export const commandLine: fc.Arbitrary<string[]> = fc
  .tuple(
    fc.constantFrom('pack', 'episodes', 'budget', 'repair'),
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom<FileName>('good', 'mutated', 'stdin') },
      { weight: 1, arbitrary: fc.constantFrom(...fileNames) },
    ),
    fc.boolean(),
    fc.nat(9),
    fc.nat(9),
  )
  .chain(([command, file, equalsForm, noise, required]) =>
    fc.array(optionsOf[command]!, { maxLength: 4 }).chain((options) =>
      fc.tuple(junk, fc.constantFrom(...fileNames)).map(([extra, secondFile]) => {
        // Most pack and budget lines carry their required option, so they reach the transcript.
        const needed = required > 1 && command === 'pack' ? [['--budget', '16k']] : required > 1 && command === 'budget' ? [['--budgets', '2k,8k']] : [];
        const flags = [...needed, ...options].flatMap((option) =>
          option.length === 2 && equalsForm ? [`${option[0]}=${option[1]}`] : option,
        );
        const line = [command, `@${file}`, ...flags];
        if (noise === 0) line.push(extra);
        if (noise === 1) line.push(`@${secondFile}`);
        if (noise === 2) line.shift();
        return line;
      }),
    ),
  );
