/** The Gemini API adapter. */
export { createGoogleAdapter, type GoogleAdapter, type GoogleAdapterOptions } from './google-adapter.js';
export { mapGoogleError } from './google-error.js';
export { resolveGoogleProfile } from './google-profile.js';
