/** The typed error of this package: an AI SDK prompt or stream it cannot map without losing something. */
import { EpisodicError } from '@episodic/core';

/** The codes of {@link AISDKConversionError}. */
export type AISDKConversionCode = 'ai_sdk_unsupported_part' | 'ai_sdk_invalid_prompt';

/**
 * An AI SDK prompt or stream part that cannot be converted without dropping something.
 * The message names the message and part index and the part's type; nothing is sent.
 */
export class AISDKConversionError extends EpisodicError<AISDKConversionCode> {}
