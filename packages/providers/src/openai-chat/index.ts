/** The OpenAI Chat Completions adapter and the chat wire helpers the compatible adapter shares. */

export { type ChatReasoningWire, convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';
export {
  createOpenAIChatAdapter,
  type OpenAIChatAdapter,
  type OpenAIChatAdapterOptions,
  type OpenAIChatCallSettings,
} from './openai-chat-adapter.js';
export { ChatToolsNeedResponsesError } from './openai-chat-error.js';
export { type ChatReasoningReader, mapOpenAIChatUsage } from './openai-chat-stream.js';
