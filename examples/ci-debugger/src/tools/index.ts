/**
 * The CI debugger's tools: recorded CI runs, the built-in read-only file tools
 * rooted at the fixture project, test runs, and patches on a scratch copy.
 */
import type { AgentTool } from '@episodic/core';
import { fileTools } from '@episodic/tools';
import { ciRunTools } from './ci-runs.js';
import { ScratchWorkspace } from './scratch-workspace.js';
import { testTools } from './test-tools.js';

export { type CiRun, ciRunTools, loadRuns } from './ci-runs.js';
export { DEFAULT_LOG_LIMITS, type LogViewRequest, logLines, viewLog } from './log-view.js';
export { type FileEdit, ScratchWorkspace } from './scratch-workspace.js';
export { runTestBatch, type TestBatch, type TestBatchReport } from './test-runner.js';

/** Where the tools work. */
export interface CiDebuggerToolsOptions {
  /** The project under investigation (never written). */
  project: string;
  /** Directory with `runs.json` and the run logs. */
  logs: string;
  /** Runs of the test suite at the same time. */
  concurrency?: number;
}

/** The tool set and the scratch workspace it patches (dispose it when done). */
export interface CiDebuggerTools {
  tools: AgentTool[];
  scratch: ScratchWorkspace;
}

/** Builds every tool of the example. */
export function ciDebuggerTools(options: CiDebuggerToolsOptions): CiDebuggerTools {
  const scratch = new ScratchWorkspace(options.project);
  const tools = [
    ...ciRunTools({ directory: options.logs }),
    ...fileTools({ root: options.project, read: { maxBytes: 40_000 }, search: { maxResults: 60 } }),
    ...testTools({ project: options.project, scratch, concurrency: options.concurrency }),
  ];
  return { tools, scratch };
}
