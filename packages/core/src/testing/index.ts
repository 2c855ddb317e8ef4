/**
 * `@episodic/core/testing`: helpers for testing agents offline.
 */
export * from './scripted-model.js';
