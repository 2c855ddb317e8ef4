/** The Gemini API adapter. */
export { createGoogleAdapter, type GoogleAdapter, type GoogleAdapterOptions } from './google-adapter.js';
