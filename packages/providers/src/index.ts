/**
 * @episodic/providers: model adapters over the official SDKs, one folder per
 * wire API, and the model profile table.
 */
export * from './anthropic/index.js';
export * from './google/index.js';
export * from './openai-chat/index.js';
export * from './openai-compatible/index.js';
export * from './openai-responses/index.js';
export * from './profiles/index.js';
export * from './shared/index.js';
