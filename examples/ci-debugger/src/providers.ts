/**
 * `--provider NAME --model ID [--base-url URL]` to a model adapter. Which factory
 * serves which provider is a table; every OpenAI-compatible host not listed goes
 * through the compatible adapter (its profile knows the base URL and key variable,
 * or `--base-url` supplies them).
 */
import { EpisodicError, type ModelAdapter } from '@episodic/core';
import type { MissingApiKeyError } from '@episodic/providers';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createGoogleAdapter } from '@episodic/providers/google';
import { createOpenAIChatAdapter, createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { createOpenAICompatibleAdapter } from '@episodic/providers/openai-compatible';

/** What the user asked for on the command line. */
export interface ProviderChoice {
  provider: string;
  model: string;
  baseURL?: string;
}

type Factory = (choice: ProviderChoice) => ModelAdapter;

/** Native adapters by provider name. */
const NATIVE: Record<string, Factory> = {
  anthropic: (choice) => createAnthropicAdapter(options(choice)),
  openai: (choice) => createOpenAIResponsesAdapter(options(choice)),
  'openai-chat': (choice) => createOpenAIChatAdapter(options(choice)),
  google: (choice) => createGoogleAdapter(options(choice)),
};

/** OpenAI-compatible hosts with a built-in profile (base URL, key variable, reasoning field). */
export const COMPATIBLE_HOSTS = [
  'deepseek',
  'openrouter',
  'ollama',
  'zai',
  'moonshot',
  'minimax',
  'groq',
  'cerebras',
  'fireworks',
  'vllm',
] as const;

/** Every provider name `--provider` knows without `--base-url`. */
export const PROVIDER_NAMES = [...Object.keys(NATIVE), ...COMPATIBLE_HOSTS];

/** The command line asked for something that cannot run. */
export class ProviderSetupError extends EpisodicError {
  constructor(message: string) {
    super('provider_setup', message);
  }
}

function options(choice: ProviderChoice): { model: string; baseURL?: string } {
  return choice.baseURL === undefined ? { model: choice.model } : { model: choice.model, baseURL: choice.baseURL };
}

/**
 * Builds the adapter. Errors the user can fix (missing key, unknown provider
 * without a base URL) come back as {@link ProviderSetupError} with the fix in the message.
 */
export function createModel(choice: ProviderChoice): ModelAdapter {
  const native = NATIVE[choice.provider];
  try {
    if (native) return native(choice);
    if (!(COMPATIBLE_HOSTS as readonly string[]).includes(choice.provider) && choice.baseURL === undefined) {
      throw new ProviderSetupError(
        `Unknown provider "${choice.provider}". Use one of ${PROVIDER_NAMES.join(', ')}, or any OpenAI-compatible ` +
          'server with --base-url URL (its key is read from <PROVIDER>_API_KEY).',
      );
    }
    return createOpenAICompatibleAdapter({ provider: choice.provider, ...options(choice) });
  } catch (error) {
    if (error instanceof ProviderSetupError) throw error;
    if (EpisodicError.isInstance(error) && error.code === 'missing_api_key') {
      // The variables come from the model's profile, as the adapter read them.
      const [variable] = (error as MissingApiKeyError).environmentVariables;
      throw new ProviderSetupError(`${error.message}\nFor example: export ${variable}=...`);
    }
    if (EpisodicError.isInstance(error) && error.code === 'invalid_argument') throw new ProviderSetupError(error.message);
    throw error;
  }
}
