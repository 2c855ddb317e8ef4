/**
 * The `openai` SDK, loaded on the first request instead of when the adapter's entry
 * point is imported. The SDK is most of what `@episodic/providers/openai` costs to
 * import (about 240 of 700 ms of CPU here), and an application pays it at startup
 * for every provider it could use, whether it calls it or not.
 */
import type OpenAI from 'openai';

type OpenAISdk = typeof import('openai');

let loaded: OpenAISdk | undefined;
let loading: Promise<OpenAISdk> | undefined;

/** The SDK module, imported once. */
export function loadOpenAISdk(): Promise<OpenAISdk> {
  loading ??= import('openai').then((sdk) => (loaded = sdk));
  return loading;
}

/**
 * The SDK if a request has loaded it, for `instanceof` checks on errors: an error
 * the SDK threw implies it is loaded, so `undefined` means "not an SDK error".
 */
export function loadedOpenAISdk(): OpenAISdk | undefined {
  return loaded;
}

/** A client made on its first use (or the application's own, used as given). */
export class LazyOpenAIClient {
  private client: Promise<OpenAI> | undefined;

  /** `apiKey` is the key the client will use, known before it exists (for redaction). */
  constructor(
    private readonly make: (sdk: OpenAISdk) => OpenAI,
    readonly apiKey: string | undefined,
    given?: OpenAI,
  ) {
    // The SDK is still loaded for the error checks (an application's own client may come from it).
    if (given) this.client = loadOpenAISdk().then(() => given);
  }

  /** The client, created (and the SDK loaded) on the first call. */
  get(): Promise<OpenAI> {
    this.client ??= loadOpenAISdk().then((sdk) => this.make(sdk));
    return this.client;
  }
}
