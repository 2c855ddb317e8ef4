/** `@google/genai`, loaded on the first request (see shared/lazy-sdk.ts for why). */
import type { GoogleGenAI } from '@google/genai';
import { type LazyClient, LazySdk } from '../shared/lazy-sdk.js';

/** The `@google/genai` module, as {@link googleSdk} loads it. */
export type GoogleSdk = typeof import('@google/genai');

/** The Google GenAI SDK: loaded by the first request of a Gemini adapter. */
export const googleSdk = new LazySdk<GoogleSdk>(() => import('@google/genai'));

/** A Google GenAI client made on its first use (or the application's own). */
export type LazyGoogleClient = LazyClient<GoogleSdk, GoogleGenAI>;
