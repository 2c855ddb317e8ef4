/**
 * The system prompt and tool definitions of the benchmark's simulated CI-debugging
 * agent. Every strategy sends them as the stable prefix of each call.
 */

/** System prompt of the simulated agent (about 250 tokens). */
export const BENCH_SYSTEM = [
  'You are a CI-debugging agent working in a TypeScript monorepo.',
  'When the user reports a failing pipeline, read the CI log first, find the failing step,',
  'then read the files named in the stack trace and search the code base for the symbols involved.',
  'Form a hypothesis before you edit anything, and say which evidence supports it.',
  'Make the smallest change that fixes the cause, not the symptom; never disable a test to make it pass.',
  'After each edit run the affected tests, and read their output before you claim success.',
  'If a test is flaky, show the evidence (two runs with different outcomes and no change in between).',
  'Prefer the repository conventions: ESM imports with .js endings, strict TypeScript, no any,',
  'typed errors that extend the base error class, and comments that say why rather than what.',
  'Keep answers short: what failed, why, what you changed, and how you checked it.',
  'When you are unsure, ask one precise question instead of guessing.',
  'Tool results can be long: quote only the lines that matter in your answer.',
].join('\n');

const stringProperty = (description) => ({ type: 'string', description });

/** Tool definitions of the simulated agent. */
export const BENCH_TOOLS = [
  {
    name: 'get_ci_log',
    description: 'Fetch the log of a CI run, optionally only one job or step.',
    inputSchema: {
      type: 'object',
      properties: { run: { type: 'integer', description: 'CI run number' }, job: stringProperty('Job name') },
      required: ['run'],
    },
  },
  {
    name: 'read_file',
    description: 'Read a file of the repository with line numbers, optionally a line range.',
    inputSchema: {
      type: 'object',
      properties: {
        path: stringProperty('Path relative to the repository root'),
        startLine: { type: 'integer' },
        endLine: { type: 'integer' },
      },
      required: ['path'],
    },
  },
  {
    name: 'search_code',
    description: 'Search the repository for a regular expression; prints path:line: text for each hit.',
    inputSchema: {
      type: 'object',
      properties: { query: stringProperty('Regular expression'), glob: stringProperty('Limit to files matching') },
      required: ['query'],
    },
  },
  {
    name: 'run_tests',
    description: 'Run the test suite or the tests whose name matches a pattern and print the report.',
    inputSchema: { type: 'object', properties: { pattern: stringProperty('Test name or file pattern') } },
  },
  {
    name: 'edit_file',
    description: 'Replace one exact occurrence of a text in a file and print the resulting diff.',
    inputSchema: {
      type: 'object',
      properties: {
        path: stringProperty('File to edit'),
        old: stringProperty('Exact text'),
        new: stringProperty('Replacement'),
      },
      required: ['path', 'old', 'new'],
    },
  },
  {
    name: 'list_files',
    description: 'List the files under a directory.',
    inputSchema: { type: 'object', properties: { dir: stringProperty('Directory') }, required: ['dir'] },
  },
];
