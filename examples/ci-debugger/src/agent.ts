/**
 * The CI-debugging agent: system prompt, tools and packing settings. The model is
 * passed in, so the same agent runs on the offline scripted model and on any
 * provider adapter.
 */
import { Agent, type AgentTool, type ModelAdapter, maxSteps, type SessionStore } from '@episodic/core';
import { FIXTURE_LOGS, FIXTURE_PROJECT } from './fixture-paths.js';
import { ciDebuggerTools, type ScratchWorkspace } from './tools/index.js';

/** The system prompt: the job, the method and the shape of the answer. */
export const SYSTEM_PROMPT = `You are a CI debugging agent for the Node project "tiny-queue".
CI is intermittently red. Find the failing test, explain why it fails, and propose a fix that you have verified.

Tools:
- list_ci_runs lists recorded GitHub Actions runs; get_ci_log reads a run's log. Logs are thousands of lines:
  start from the outline, then grep (regular expression, with context) or read line ranges. Never page through a
  whole log.
- read_file, list_files and search_text read the project (read-only).
- run_tests runs the tests N times in the original checkout. CI sets TEST_SEED (printed in the logs) so a run can
  be replayed; pass seed to replay or to make a batch reproducible.
- apply_patch applies search/replace edits to a fresh scratch copy (the original is never changed);
  run_tests_on_patched runs the tests there.

Method: compare failing and passing runs (a test that fails and passes on the same commit is flaky), read the
assertion and stack trace, read the test and the code under test, state a hypothesis, reproduce the failure with
repeated runs, patch the cause (prefer fixing the code over weakening the test), and verify the patch with the same
seeds that failed before, plus the whole suite. Call independent tools in parallel.

Answer in Markdown with three sections: "Root cause", "Patch" (the unified diff from apply_patch) and "Evidence"
(CI runs, log lines, pass/fail counts before and after). Write "Verified fix" only if every verification run passed.`;

/** The initial task `npm start` sends. */
export const DEFAULT_TASK =
  'CI for tiny-queue is flaky: main goes red every few runs and nobody can reproduce it locally. ' +
  'Find the failing test, the root cause and a fix, and verify the fix.';

/**
 * Follow-ups the offline demo sends as episodes 2 and 3: they show past reasoning
 * dropped, old tool results shortened, and (with {@link OFFLINE_BUDGET}) the first
 * episode evicted.
 */
export const OFFLINE_FOLLOW_UPS: readonly string[] = [
  'Follow-up: run #1847 on feat/priority-lanes was red too. Is that the same flake?',
  'And #1883 and #1853 on main, the ones nobody could reproduce: the same race?',
];

/**
 * Input budget of the offline demo: the first episode (about 8,900 tokens at its
 * largest) fits, and the follow-ups push it out, so eviction shows on screen.
 */
export const OFFLINE_BUDGET = 9_500;

/** Options of {@link createCiDebugger}. */
export interface CiDebuggerOptions {
  model: ModelAdapter;
  /** Max input tokens per call; default the model's budget, capped at {@link DEFAULT_BUDGET}. */
  budget?: number;
  store?: SessionStore;
  /** The project to debug (default: the bundled fixture). */
  project?: string;
  /** Directory with runs.json and the logs (default: the bundled recordings). */
  logs?: string;
  /** Test runs at the same time. */
  concurrency?: number;
  /** Adjusts the tool set (add your own tools, or stand-ins in tests). */
  customizeTools?: (tools: AgentTool[]) => AgentTool[];
  /** apply_patch waits for a person's approval (the episode pauses; see `session.approve()`). */
  confirmPatches?: boolean;
}

/**
 * Input budget when none is given. Deliberately modest: a long investigation
 * fills it, so the packer's work (shortened old results, evicted episodes) shows.
 */
export const DEFAULT_BUDGET = 24_000;

/** The agent and the scratch workspace its patches go to (dispose it when done). */
export interface CiDebugger {
  agent: Agent;
  scratch: ScratchWorkspace;
}

/** Builds the agent around a model. */
export function createCiDebugger(options: CiDebuggerOptions): CiDebugger {
  const built = ciDebuggerTools({
    project: options.project ?? FIXTURE_PROJECT,
    logs: options.logs ?? FIXTURE_LOGS,
    concurrency: options.concurrency,
  });
  const { scratch } = built;
  const tools = options.confirmPatches
    ? built.tools.map((tool) => (tool.spec.name === 'apply_patch' ? { ...tool, needsApproval: true } : tool))
    : built.tools;
  const profile = options.model.profile;
  const modelBudget = profile ? profile.contextWindow - profile.maxOutputTokens : DEFAULT_BUDGET;
  const agent = new Agent({
    model: options.model,
    system: SYSTEM_PROMPT,
    tools: options.customizeTools ? options.customizeTools(tools) : tools,
    store: options.store,
    stopWhen: maxSteps(30),
    context: {
      budget: options.budget ?? Math.min(modelBudget, DEFAULT_BUDGET),
      pack: {
        // Past episodes keep only the head and tail of big tool results...
        toolResultCap: 500,
        // ...while the current episode sees each result almost whole (log views are capped at 200 lines anyway).
        currentToolResultCap: 6_000,
        // After an eviction, drop to 60% of the budget so the next few calls extend a stable prefix.
        lowWater: 0.6,
      },
    },
    toolCalls: { maxConcurrency: 4, timeoutMs: 180_000 },
  });
  return { agent, scratch };
}
