/** The OpenAI Responses API adapter. */
export {
  createOpenAIResponsesAdapter,
  type OpenAIReasoningEffort,
  type OpenAIReasoningSummary,
  type OpenAIResponsesAdapter,
  type OpenAIResponsesAdapterOptions,
  type OpenAIResponsesCallSettings,
} from './openai-responses-adapter.js';
