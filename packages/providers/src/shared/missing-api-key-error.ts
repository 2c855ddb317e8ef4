/** The typed error adapters throw when no API key is configured. */
import { EpisodicError } from '@episodic/core';

/** No API key was passed and none of the provider's environment variables is set. */
export class MissingApiKeyError extends EpisodicError {
  readonly provider: string;
  /** The variables the key is read from, first choice first (from the model profile). */
  readonly environmentVariables: readonly string[];

  constructor(provider: string, environmentVariables: readonly string[]) {
    super(
      'missing_api_key',
      `No API key for ${provider}: pass { apiKey } to the adapter or set ${environmentVariables.join(' or ')}.`,
    );
    this.provider = provider;
    this.environmentVariables = environmentVariables;
  }
}

/** The explicit key, or the first non-empty environment variable; throws {@link MissingApiKeyError}. */
export function resolveApiKey(
  provider: string,
  explicit: string | undefined,
  environmentVariables: readonly string[],
): string {
  if (explicit) return explicit;
  for (const name of environmentVariables) {
    // Browsers and some edge runtimes have no process: there the key must be explicit.
    const value = typeof process === 'undefined' ? undefined : process.env[name];
    if (value) return value;
  }
  throw new MissingApiKeyError(provider, environmentVariables);
}

/** What the compatible adapter sends to a server that needs no key: not a secret. */
export const NO_API_KEY = 'not-needed';

/**
 * The API key an SDK client holds (the official clients all keep it in `apiKey`), as
 * the list an adapter's `secretValues()` returns: the agent keeps it out of tool
 * results and errors.
 */
export function apiKeysOf(client: unknown): string[] {
  const key = (client as { apiKey?: unknown } | undefined)?.apiKey;
  return typeof key === 'string' && key !== NO_API_KEY ? [key] : [];
}
