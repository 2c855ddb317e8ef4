/**
 * Word-like text for the generated benchmark session: prose for reasoning and
 * answers, code for file reads, log lines for CI logs, grep hits and test output.
 * Built from vocabularies rather than random bytes so tiktoken counts are
 * realistic (random bytes tokenize 3-4x worse than real agent traffic).
 *
 * Every builder takes a target size in tokens and a `random` function in [0, 1).
 * Sizes are approximate: each builder stops once its estimate (characters per
 * token measured once for each kind of text with o200k_base) reaches the target.
 */

const COMMON = `the a to of and in is it that for on with as this be are not we at by or from
but if then so when which should would could will can may must need check see look try run
test fail pass error build step job file line change commit branch main fix issue because
after before still only also again now here there first next last same other new old more
less each every some any all none both why how what where value type result output input
call return case config version module package import export default function class const
let await async promise string number object array undefined null true false path name
`.split(/\s+/);

const TECHNICAL = `typescript node npm vitest jest eslint biome tsconfig webpack vite dependency
lockfile workspace monorepo pipeline workflow runner cache artifact timeout flaky snapshot
assertion stack trace regression coverage compile transpile bundle resolve peer semver
deprecated migration schema validation serializer parser tokenizer encoder adapter handler
middleware router controller service repository client server request response header status
retry backoff queue worker thread process memory heap leak profile benchmark latency throughput
environment variable secret token credential permission container docker image registry
`.split(/\s+/);

const WORDS = [...COMMON, ...COMMON, ...TECHNICAL].filter(Boolean);
const IDENTIFIER_PARTS = `get set parse load save read write build create update delete find resolve
handle format render validate normalize merge split count pack trim apply collect emit flush
user session message episode token budget config cache state result error step tool call
request response stream chunk buffer record entry item node tree list map index key`.split(/\s+/);
const DIRECTORIES = ['src', 'src/core', 'src/utils', 'src/api', 'packages/app/src', 'lib', 'test', 'scripts'];
const EXTENSIONS = ['.ts', '.ts', '.ts', '.js', '.json', '.test.ts'];
const LEVELS = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR'];

/** Characters per o200k token, measured once per kind of text (a session of 60 turns). */
const CHARS_PER_TOKEN = { prose: 4.85, code: 3.75, log: 3.0, grep: 3.95, tests: 3.9 };

const pick = (random, list) => list[Math.floor(random() * list.length)];

function identifier(random) {
  const first = pick(random, IDENTIFIER_PARTS);
  const second = pick(random, IDENTIFIER_PARTS);
  return first + second[0].toUpperCase() + second.slice(1);
}

/** A plausible source path. */
export function sourcePath(random) {
  return `${pick(random, DIRECTORIES)}/${pick(random, IDENTIFIER_PARTS)}-${pick(random, IDENTIFIER_PARTS)}${pick(random, EXTENSIONS)}`;
}

function sentence(random) {
  const length = 6 + Math.floor(random() * 16);
  const words = [];
  for (let index = 0; index < length; index += 1) {
    const roll = random();
    if (roll < 0.06) words.push(`\`${identifier(random)}\``);
    else if (roll < 0.08) words.push(sourcePath(random));
    else if (roll < 0.1) words.push(String(Math.floor(random() * 500)));
    else words.push(pick(random, WORDS));
  }
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}${random() < 0.15 ? '?' : '.'}`;
}

function fill(tokens, kind, random, nextLine, separator) {
  const targetChars = tokens * CHARS_PER_TOKEN[kind];
  const lines = [];
  let chars = 0;
  while (chars < targetChars) {
    const line = nextLine(random, lines.length);
    lines.push(line);
    chars += line.length + separator.length;
  }
  return lines.join(separator);
}

/** Prose of about `tokens` tokens (reasoning, answers, user requests). */
export function prose(tokens, random) {
  return fill(
    tokens,
    'prose',
    random,
    (rng, index) => (index > 0 && rng() < 0.12 ? `\n\n${sentence(rng)}` : sentence(rng)),
    ' ',
  );
}

function codeLine(random, index) {
  const indent = '  '.repeat(Math.floor(random() * 4));
  const roll = random();
  const name = identifier(random);
  if (index % 12 === 0)
    return `export function ${name}(${identifier(random)}: ${pick(random, ['string', 'number', 'Config', 'Message[]'])}) {`;
  if (roll < 0.25)
    return `${indent}const ${name} = await ${identifier(random)}(${identifier(random)}, { ${pick(random, IDENTIFIER_PARTS)}: ${Math.floor(random() * 100)} });`;
  if (roll < 0.4) return `${indent}if (!${name}) throw new Error('${sentence(random).slice(0, 40)}');`;
  if (roll < 0.55)
    return `${indent}return ${name}.${identifier(random)}(${pick(random, ['true', 'null', '0', "''"])});`;
  if (roll < 0.65) return `${indent}// ${sentence(random)}`;
  if (roll < 0.75) return `${indent}}`;
  if (roll < 0.85) return `${indent}for (const ${pick(random, IDENTIFIER_PARTS)} of ${name}) {`;
  return `${indent}${name}.${identifier(random)} = ${identifier(random)}[${Math.floor(random() * 10)}];`;
}

/** Source code of about `tokens` tokens, with line numbers like a read_file tool prints. */
export function code(tokens, random) {
  return fill(
    tokens,
    'code',
    random,
    (rng, index) => `${String(index + 1).padStart(4)}  ${codeLine(rng, index)}`,
    '\n',
  );
}

/** CI log lines of about `tokens` tokens. */
export function ciLog(tokens, random) {
  const start = Date.UTC(2026, 2, 4, 12, 0, 0);
  return fill(
    tokens,
    'log',
    random,
    (rng, index) => {
      const stamp = new Date(start + index * 137 + Math.floor(rng() * 100)).toISOString();
      const level = pick(rng, LEVELS);
      const roll = rng();
      if (roll < 0.3)
        return `${stamp} [${level}] npm ${pick(rng, ['ci', 'run build', 'test', 'run lint'])} ${sourcePath(rng)} (${Math.floor(rng() * 4000)} ms)`;
      if (roll < 0.45)
        return `${stamp} [${level}]     at ${identifier(rng)} (${sourcePath(rng)}:${Math.floor(rng() * 400)}:${Math.floor(rng() * 80)})`;
      return `${stamp} [${level}] ${sentence(rng)}`;
    },
    '\n',
  );
}

/** grep-style search hits of about `tokens` tokens. */
export function searchHits(tokens, random) {
  return fill(
    tokens,
    'grep',
    random,
    (rng, index) => `${sourcePath(rng)}:${index * 7 + Math.floor(rng() * 7)}: ${codeLine(rng, 1).trim()}`,
    '\n',
  );
}

/** Test runner output of about `tokens` tokens. */
export function testOutput(tokens, random) {
  return fill(
    tokens,
    'tests',
    random,
    (rng) => {
      const roll = rng();
      const file = sourcePath(rng).replace(/\.(ts|js|json)$/, '.test.ts');
      if (roll < 0.7) return ` ✓ ${file} > ${sentence(rng).toLowerCase().slice(0, 60)} (${Math.floor(rng() * 90)} ms)`;
      if (roll < 0.85)
        return ` ✗ ${file} > ${sentence(rng).toLowerCase().slice(0, 60)}\n   AssertionError: expected ${Math.floor(rng() * 9)} to equal ${Math.floor(rng() * 9)}`;
      return `   ❯ ${sourcePath(rng)}:${Math.floor(rng() * 300)}:${Math.floor(rng() * 40)}`;
    },
    '\n',
  );
}

/** A short identifier-like word, for tool arguments. */
export function word(random) {
  return identifier(random);
}
