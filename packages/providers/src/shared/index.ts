/** Helpers shared by every wire-API adapter. */
export * from './error-classification.js';
export * from './missing-api-key-error.js';
export * from './provider-data.js';
export * from './stable-hash.js';
export * from './run-sdk-stream.js';
export * from './tool-call-id.js';
export * from './provider-adapter.js';
