/**
 * The offline model behind `npm start` without `--provider`: a scripted model
 * (`@episodic/core/testing`) whose every step is decided from the request it gets,
 * that is, from the tool results the agent loop fed back. It streams reasoning and
 * text like a real model, so the whole SDK path (packing, reasoning retention,
 * tool execution, persistence) runs for real; only the thinking is canned.
 */
import type { ModelRequest } from '@episodic/core';
import { type ScriptedModel, type ScriptStep, scriptedModel } from '@episodic/core/testing';
import { ciStep } from './offline/ci-policy.js';
import { viewEpisode } from './offline/episode-facts.js';
import { followUpStep } from './offline/follow-up-policy.js';

/** The model reference written into transcripts. */
export const OFFLINE_MODEL = { provider: 'offline', id: 'scripted-ci-debugger' } as const;

/**
 * Decides the next step from a packed request. A question about flaky or red CI
 * starts an investigation; a question naming a run or branch (`#1847`,
 * `feat/priority-lanes`) is a follow-up about those runs.
 */
export function offlineStep(request: ModelRequest): ScriptStep {
  const view = viewEpisode(request);
  return isInvestigation(view.question) ? ciStep(view) : followUpStep(view);
}

function isInvestigation(question: string): boolean {
  const namesRun = /#\d{3,}|\b[\w-]+\/[\w-]+\b/.test(question);
  return !namesRun && /flak|fix|debug|\bred\b|fail/i.test(question);
}

/** Options of {@link offlineModel}. */
export interface OfflineModelOptions {
  /** Simulated latency per call in ms (default 40), so streaming is visible. */
  latencyMs?: number;
}

/** The offline scripted model. */
export function offlineModel(options: OfflineModelOptions = {}): ScriptedModel {
  return scriptedModel({
    model: { ...OFFLINE_MODEL },
    steps: (request) => offlineStep(request),
    latencyMs: options.latencyMs ?? 40,
    chunkSize: 48,
    profile: { contextWindow: 64_000, maxOutputTokens: 4_000 },
  });
}
