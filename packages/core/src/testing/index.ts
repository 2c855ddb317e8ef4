/**
 * `@episodic/core/testing`: helpers for testing agents offline.
 */
export { scriptedModel } from './scripted-model.js';
export type { Script, ScriptedModel, ScriptedModelOptions, ScriptStep, ScriptToolCall } from './scripted-model.js';
export { createApproximateCounter } from '../tokens/token-counter.js';
export { MemoryJournal, SimulatedCrash } from './memory-journal.js';
export type { CrashPoint } from './memory-journal.js';
