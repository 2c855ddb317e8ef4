/** The `openai` SDK, loaded on the first request (see shared/lazy-sdk.ts for why). */
import type OpenAI from 'openai';
import { type LazyClient, LazySdk } from '../shared/lazy-sdk.js';

/** The `openai` module, as {@link openAISdk} loads it. */
export type OpenAISdk = typeof import('openai');

/** The `openai` SDK: loaded by the first request of any OpenAI or OpenAI-compatible adapter. */
export const openAISdk = new LazySdk<OpenAISdk>(() => import('openai'));

/** An `openai` client made on its first use (or the application's own). */
export type LazyOpenAIClient = LazyClient<OpenAISdk, OpenAI>;
