/**
 * @episodic/providers/openai: the adapters for OpenAI's own endpoints, the
 * Responses API and Chat Completions, over the `openai` SDK (an optional peer
 * dependency: install it beside this package).
 */
export {
  ChatToolsNeedResponsesError,
  createOpenAIChatAdapter,
  type OpenAIChatAdapter,
  type OpenAIChatAdapterOptions,
  type OpenAIChatCallSettings,
} from '../openai-chat/index.js';
export {
  createOpenAIResponsesAdapter,
  type OpenAIReasoningEffort,
  type OpenAIReasoningSummary,
  type OpenAIResponsesAdapter,
  type OpenAIResponsesAdapterOptions,
  type OpenAIResponsesCallSettings,
} from '../openai-responses/openai-responses-adapter.js';
