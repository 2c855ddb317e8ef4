/**
 * `list_ci_runs` and `get_ci_log`: the recorded CI runs of the fixture project
 * (an index file plus one GitHub Actions job log per run).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentTool } from '@episodic/core';
import { defineTool, ToolUsageError } from '@episodic/tools';
import { z } from 'zod';
import { DEFAULT_LOG_LIMITS, type LogViewLimits, logLines, viewLog } from './log-view.js';

/** One entry of `runs.json`. */
export const CiRun = z.object({
  id: z.number().int(),
  number: z.number().int(),
  workflow: z.string(),
  job: z.string(),
  branch: z.string(),
  commit: z.string(),
  event: z.string(),
  status: z.enum(['success', 'failure', 'cancelled']),
  started: z.string(),
  durationSeconds: z.number(),
  failingTest: z.string().nullable(),
  logLines: z.number().int(),
  log: z.string(),
});
export type CiRun = z.infer<typeof CiRun>;

const CiRunIndex = z.array(CiRun);

/** Reads and validates the run index in `directory/runs.json`. */
export async function loadRuns(directory: string): Promise<CiRun[]> {
  const text = await readFile(path.join(directory, 'runs.json'), 'utf8');
  return CiRunIndex.parse(JSON.parse(text));
}

/** Where the recorded runs live and how much of a log one call may return. */
export interface CiRunToolsOptions {
  /** Directory with `runs.json` and the logs it names. */
  directory: string;
  limits?: LogViewLimits;
}

/** The two CI tools over one directory of recorded runs. */
export function ciRunTools(options: CiRunToolsOptions): AgentTool[] {
  let runs: Promise<CiRun[]> | undefined;
  const index = () => {
    runs ??= loadRuns(options.directory);
    return runs;
  };
  return [listRunsTool(index), getLogTool(index, options.directory, options.limits ?? DEFAULT_LOG_LIMITS)];
}

type RunIndex = () => Promise<CiRun[]>;

function listRunsTool(index: RunIndex): AgentTool {
  return defineTool({
    name: 'list_ci_runs',
    description:
      'List recorded CI runs of the project, newest first: id, run number, branch, commit, status, start time, ' +
      'duration and the failing test named by the run summary (if any).',
    input: z.object({
      status: z.enum(['success', 'failure']).optional().describe('Only runs with this status.'),
      branch: z.string().optional().describe('Only runs of this branch.'),
    }),
    execute: async ({ status, branch }) => {
      const selected = (await index()).filter(
        (run) => (status === undefined || run.status === status) && (branch === undefined || run.branch === branch),
      );
      if (selected.length === 0) return 'No CI runs match.';
      const rows = selected.map(
        (run) =>
          `${run.id} #${run.number} ${run.status.padEnd(7)} ${run.branch} ${run.commit.slice(0, 7)} ${run.event} ` +
          `started ${run.started} ${run.durationSeconds}s ${run.logLines} log lines` +
          (run.failingTest ? ` failing: "${run.failingTest}"` : ''),
      );
      return `${selected.length} run${selected.length === 1 ? '' : 's'} (id #number status branch commit event ...):\n${rows.join('\n')}`;
    },
  });
}

function getLogTool(index: RunIndex, directory: string, limits: LogViewLimits): AgentTool {
  return defineTool({
    name: 'get_ci_log',
    description:
      "Read a CI run's job log (GitHub Actions format, thousands of lines). Without grep or from/to it returns an " +
      'outline (step groups and error lines with line numbers). grep takes a JavaScript regular expression and shows ' +
      `matching lines with optional context; from/to read a line range. At most ${limits.maxLines} lines per call; ` +
      'runner timestamps are hidden unless timestamps is true.',
    input: z.object({
      run: z.number().int().describe('Run id or run number, as listed by list_ci_runs.'),
      grep: z.string().min(1).optional().describe('Regular expression to search for, such as "✖|##\\[error\\]".'),
      from: z.number().int().min(1).optional().describe('First line to show (1-based).'),
      to: z.number().int().min(1).optional().describe('Last line to show (inclusive).'),
      context: z.number().int().min(0).max(20).optional().describe('Lines of context around each grep match.'),
      timestamps: z.boolean().optional().describe('Show the runner timestamp of each line.'),
    }),
    execute: async (input) => {
      const run = (await index()).find((candidate) => candidate.id === input.run || candidate.number === input.run);
      if (!run) {
        throw new ToolUsageError(
          'unknown_run',
          `No CI run with id or number ${input.run}. Call list_ci_runs to see them.`,
        );
      }
      if (input.grep !== undefined) assertRegExp(input.grep);
      const text = await readFile(path.join(directory, path.basename(run.log)), 'utf8');
      return viewLog(`run ${run.id} (#${run.number}, ${run.branch}, ${run.status})`, logLines(text), input, limits);
    },
  });
}

function assertRegExp(pattern: string): void {
  try {
    new RegExp(pattern);
  } catch (error) {
    throw new ToolUsageError('invalid_regex', `grep is not a valid regular expression: ${(error as Error).message}`);
  }
}
