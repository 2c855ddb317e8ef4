/** The OpenAI Chat Completions adapter. */
export {
  createOpenAIChatAdapter,
  type OpenAIChatAdapter,
  type OpenAIChatAdapterOptions,
  type OpenAIChatCallSettings,
} from './openai-chat-adapter.js';
export { ChatToolsNeedResponsesError } from './openai-chat-error.js';
