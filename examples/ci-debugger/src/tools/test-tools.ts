/**
 * `run_tests`, `apply_patch` and `run_tests_on_patched`: reproduce a flaky test by
 * running it many times, patch a scratch copy of the project, and run the same
 * batch against the patch.
 */
import { stat } from 'node:fs/promises';
import type { AgentTool } from '@episodic/core';
import { defineTool, resolveInsideRoot, ToolUsageError } from '@episodic/tools';
import { z } from 'zod';
import type { ScratchWorkspace } from './scratch-workspace.js';
import { formatBatchReport, runTestBatch, type TestBatch } from './test-runner.js';

/** Options of {@link testTools}. */
export interface TestToolsOptions {
  /** The original project (read-only for these tools). */
  project: string;
  scratch: ScratchWorkspace;
  /** Most runs per call. Default 60. */
  maxTimes?: number;
  /** Runs at the same time; default from the CPU count. */
  concurrency?: number;
}

const TOOL_TIMEOUT_MS = 180_000;

/** The batch options every test tool takes. */
function batchInput(maxTimes: number) {
  return z.object({
    times: z.number().int().min(1).max(maxTimes).describe(`How many times to run (1 to ${maxTimes}).`),
    seed: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Run k gets TEST_SEED=seed+k (reproducible jitter, as CI sets it). Omit for unseeded runs.'),
    file: z
      .string()
      .optional()
      .describe('One test file relative to the project root, such as "test/queue.test.js". Default: the whole suite.'),
    namePattern: z.string().optional().describe('Only tests whose name matches this regular expression.'),
  });
}

type BatchInput = z.output<ReturnType<typeof batchInput>>;

/** Checks the file and name pattern of a batch and adds where and how to run it. */
async function batchFor(
  root: string,
  args: BatchInput,
  options: TestToolsOptions,
  signal: AbortSignal,
): Promise<TestBatch> {
  const file = args.file === undefined ? undefined : await testFile(root, args.file);
  if (args.namePattern !== undefined) {
    try {
      new RegExp(args.namePattern);
    } catch (error) {
      throw new ToolUsageError(
        'invalid_regex',
        `namePattern is not a valid regular expression: ${(error as Error).message}`,
      );
    }
  }
  return { root, ...args, file, concurrency: options.concurrency, signal };
}

/**
 * The test file as a `./`-relative path inside the root. node reads an argument that
 * starts with `-` as an option (`--eval=...`, `--require=../x`), so the model's text
 * never reaches its argv as is.
 */
async function testFile(root: string, requested: string): Promise<string> {
  const resolved = await resolveInsideRoot(root, requested);
  const stats = await stat(resolved.absolute).catch(() => undefined);
  if (!stats?.isFile()) {
    throw new ToolUsageError('not_found', `No test file "${resolved.relative}". Use list_files to see the tests.`);
  }
  return `./${resolved.relative}`;
}

/** The three test tools over one project and its scratch workspace. */
export function testTools(options: TestToolsOptions): AgentTool[] {
  const input = batchInput(options.maxTimes ?? 60);
  return [runTestsTool(options, input), applyPatchTool(options), runPatchedTool(options, input)];
}

function runTestsTool(options: TestToolsOptions, input: ReturnType<typeof batchInput>): AgentTool {
  return defineTool({
    name: 'run_tests',
    description:
      "Run the project's tests (node:test) several times in the original checkout and report how many runs passed " +
      'and failed, the failing seeds and each distinct failure. Use it to reproduce and measure a flaky test.',
    input,
    timeoutMs: TOOL_TIMEOUT_MS,
    execute: async (args, { signal }) => {
      const batch = await batchFor(options.project, args, options, signal);
      return formatBatchReport('Original', batch, await runTestBatch(batch));
    },
  });
}

function applyPatchTool(options: TestToolsOptions): AgentTool {
  return defineTool({
    name: 'apply_patch',
    description:
      'Patch a fresh scratch copy of the project (the original is never changed) and return the resulting unified ' +
      'diff. Give either edits (search/replace; each search text must occur exactly once in its file) or diff (a ' +
      'unified diff with --- a/file, +++ b/file and @@ hunks). A new call replaces the previous patch. Then use ' +
      'run_tests_on_patched.',
    input: z.object({
      edits: z
        .array(
          z.object({
            path: z.string().min(1).describe('File relative to the project root.'),
            search: z.string().min(1).describe('Exact text to replace (copied from the file, without line numbers).'),
            replace: z.string().describe('The new text.'),
          }),
        )
        .min(1)
        .optional()
        .describe('Search/replace edits, applied in order.'),
      diff: z.string().min(1).optional().describe('A unified diff, as an alternative to edits.'),
    }),
    execute: async ({ edits, diff }) => {
      if ((edits === undefined) === (diff === undefined)) {
        throw new ToolUsageError('invalid_patch', 'Give exactly one of edits or diff.');
      }
      const applied = edits ? await options.scratch.apply(edits) : await options.scratch.applyDiff(diff ?? '');
      return `Patched a scratch copy (${applied.files.join(', ')}); the original is unchanged.\n${applied.diff}`;
    },
  });
}

function runPatchedTool(options: TestToolsOptions, input: ReturnType<typeof batchInput>): AgentTool {
  return defineTool({
    name: 'run_tests_on_patched',
    description:
      'Run the tests on the patched scratch copy made by apply_patch, with the same options as run_tests, to ' +
      'check that a fix holds over many runs.',
    input,
    timeoutMs: TOOL_TIMEOUT_MS,
    execute: async (args, { signal }) => {
      const root = options.scratch.root;
      if (root === undefined) throw new ToolUsageError('no_patch', 'No patch applied yet: call apply_patch first.');
      const batch = await batchFor(root, args, options, signal);
      return formatBatchReport('Patched', batch, await runTestBatch(batch));
    },
  });
}
