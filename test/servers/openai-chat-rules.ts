/**
 * What each Chat Completions family streams and rejects, as one table the loopback
 * chat server reads. Error texts and status codes are the real ones where they are
 * known (PROVIDERS.md, "OpenAI-compatible endpoints" and "OpenAI Chat Completions");
 * rows whose wording is unverified say so.
 */

/** A rejection: status, message, and the body shape the provider uses. */
export interface ChatRejection {
  status: number;
  message: string;
  code?: string | null;
  param?: string | null;
}

/** One family's behaviour. */
export interface ChatFamilyRule {
  /** Where the scripted reasoning is streamed. */
  stream: 'reasoning_content' | 'reasoning' | 'thinking' | 'think-tags' | 'harmony' | 'none';
  /** Also stream signed OpenRouter `reasoning_details` and verify them when they come back. */
  details?: boolean;
  /** Assistant-message fields the server refuses, with the error for message index N. */
  rejectedFields?: Readonly<Record<string, (index: number) => ChatRejection>>;
  /** A field every assistant message with tool calls must carry (in the whole history). */
  requiredOnToolCalls?: { field: string; error: (index: number) => ChatRejection };
  /** Once an assistant message carries this field, every later assistant message must (OpenCode Zen). */
  requiredOnLaterAssistants?: { field: string; error: (index: number) => ChatRejection };
  /** Models that refuse the legacy `max_tokens` (OpenAI's reasoning models). */
  maxTokensRefused?: RegExp;
  /** Models that refuse function tools together with a reasoning effort other than `none`. */
  toolsWithEffortRejected?: RegExp;
  /** Error bodies come without the `{error: ...}` wrapper (Cerebras). */
  unwrappedErrors?: boolean;
  /** DeepSeek reports cache hits as `prompt_cache_hit_tokens`. */
  deepseekUsage?: boolean;
  /**
   * Moonshot: usage rides on the finishing choice (`choices[0].usage`), not in a
   * trailing usage chunk, and tool-call deltas carry no `index`.
   */
  moonshotStream?: boolean;
  /**
   * After the `finish_reason: "length"` chunk, an error chunk (OpenRouter, recorded:
   * `{"error":{"code":400,"message":"Token limit reached"}}` with the usage, then `[DONE]`).
   */
  errorAfterLength?: { code: number; message: string };
  /** Only these models take the reasoning request fields (`reasoning_format`, `reasoning_effort`); others refuse them. */
  reasoningModels?: RegExp;
  /** Takes `response_format` type `json_schema` (structured answers); other hosts refuse it. */
  jsonSchemaAnswers?: boolean;
}

/** The families the conformance suite runs. */
export type ChatFamily =
  | 'openai'
  | 'deepseek-r1'
  | 'deepseek-thinking'
  /** `deepseek-reasoner`, served by the thinking model, with the error text the issue recorded. */
  | 'deepseek-reasoner'
  | 'zai'
  | 'kimi'
  | 'minimax'
  | 'openrouter'
  | 'groq'
  | 'cerebras'
  | 'fireworks'
  | 'ollama'
  | 'vllm'
  | 'gpt-oss'
  /** A gpt-oss server that leaks raw Harmony channels into `content`. */
  | 'gpt-oss-raw';

export const chatFamilyRules: Readonly<Record<ChatFamily, ChatFamilyRule>> = {
  openai: {
    stream: 'none',
    jsonSchemaAnswers: true,
    maxTokensRefused: /^(o\d|gpt-5(?!-chat))/,
    toolsWithEffortRejected: /^gpt-5\.([2-9]|\d{2,})/,
  },
  'deepseek-r1': {
    stream: 'reasoning_content',
    deepseekUsage: true,
    // DeepSeek documents a 400 when reasoning_content is sent back; this wording is unverified.
    rejectedFields: {
      reasoning_content: (index) => ({
        status: 400,
        message: `The reasoning_content of messages[${index}] is an output-only field of deepseek-r1; remove it from your input messages.`,
        code: 'invalid_request_error',
      }),
    },
  },
  'deepseek-thinking': {
    stream: 'reasoning_content',
    deepseekUsage: true,
    requiredOnToolCalls: {
      field: 'reasoning_content',
      error: (index) => ({
        status: 400,
        message:
          `Missing \`reasoning_content\` field in the assistant message at message index ${index}. ` +
          'For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls',
        code: 'invalid_request_error',
      }),
    },
  },
  'deepseek-reasoner': {
    stream: 'reasoning_content',
    deepseekUsage: true,
    requiredOnToolCalls: {
      field: 'reasoning_content',
      error: () => ({
        status: 400,
        message: 'The `reasoning_content` in the thinking mode must be passed back to the API.',
        code: 'invalid_request_error',
      }),
    },
  },
  zai: { stream: 'reasoning_content' },
  kimi: {
    stream: 'reasoning_content',
    moonshotStream: true,
    requiredOnToolCalls: {
      field: 'reasoning_content',
      error: (index) => ({
        status: 400,
        message: `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${index}`,
      }),
    },
  },
  minimax: { stream: 'think-tags' },
  openrouter: { stream: 'reasoning', details: true, errorAfterLength: { code: 400, message: 'Token limit reached' } },
  groq: {
    stream: 'reasoning',
    // https://console.groq.com/docs/reasoning#supported-models
    reasoningModels: /^(openai\/gpt-oss-|qwen\/qwen3)/,
    rejectedFields: {
      reasoning_content: (index) => ({
        status: 400,
        message: `'messages.${index}' : property 'reasoning_content' is unsupported`,
      }),
    },
  },
  cerebras: {
    stream: 'reasoning',
    unwrappedErrors: true,
    rejectedFields: {
      reasoning_content: (index) => ({
        status: 400,
        message: `messages.${index}.assistant.reasoning_content: property 'reasoning_content' is unsupported`,
        code: 'wrong_api_format',
        param: `messages.${index}.assistant.reasoning_content`,
      }),
    },
  },
  fireworks: { stream: 'reasoning_content' },
  // Ollama's OpenAI-compatible endpoint (recorded traffic): `reasoning`, not the native API's `thinking`.
  ollama: { stream: 'reasoning' },
  vllm: { stream: 'reasoning' },
  'gpt-oss': { stream: 'reasoning' },
  'gpt-oss-raw': { stream: 'harmony' },
};

/** The error body as the family sends it. */
export function chatErrorBody(rule: ChatFamilyRule, rejection: ChatRejection): unknown {
  const error = {
    message: rejection.message,
    type: 'invalid_request_error',
    param: rejection.param ?? null,
    code: rejection.code ?? null,
  };
  return rule.unwrappedErrors ? error : { error };
}

/** Groq's answer to a reasoning field sent to a model that does not reason. */
export function reasoningFieldRejection(field: string): ChatRejection {
  return { status: 400, message: `\`${field}\` is not supported with this model`, param: field };
}

/** The OpenAI text for tools with a reasoning effort on a model that refuses them. */
export function toolsWithEffortRejection(model: string): ChatRejection {
  return {
    status: 400,
    message: `Function tools with reasoning_effort are not supported for ${model} in /v1/chat/completions. Please use /v1/responses instead.`,
    param: 'reasoning_effort',
  };
}
