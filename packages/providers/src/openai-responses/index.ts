/** The OpenAI Responses API adapter. */

export { convertToOpenAIResponsesMessages } from './convert-to-openai-responses-messages.js';
export {
  createOpenAIResponsesAdapter,
  type OpenAIResponsesAdapter,
  type OpenAIReasoningEffort,
  type OpenAIReasoningSummary,
  type OpenAIResponsesAdapterOptions,
  type OpenAIResponsesCallSettings,
} from './openai-responses-adapter.js';
export { mapOpenAIResponsesUsage } from './openai-responses-stream.js';
