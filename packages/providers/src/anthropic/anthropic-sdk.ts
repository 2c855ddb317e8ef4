/** `@anthropic-ai/sdk`, loaded on the first request (see shared/lazy-sdk.ts for why). */
import type Anthropic from '@anthropic-ai/sdk';
import { type LazyClient, LazySdk } from '../shared/lazy-sdk.js';

/** The `@anthropic-ai/sdk` module, as {@link anthropicSdk} loads it. */
export type AnthropicSdk = typeof import('@anthropic-ai/sdk');

/** The Anthropic SDK: loaded by the first request of an Anthropic adapter. */
export const anthropicSdk = new LazySdk<AnthropicSdk>(() => import('@anthropic-ai/sdk'));

/** An Anthropic client made on its first use (or the application's own). */
export type LazyAnthropicClient = LazyClient<AnthropicSdk, Anthropic>;
