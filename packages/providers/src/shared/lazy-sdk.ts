/**
 * An official SDK loaded on the first request instead of when its adapter's entry
 * point is imported. Each SDK is most of what its entry costs to import (for
 * `openai`, about 240 of 700 ms of CPU with core), and an application would pay it
 * at startup for every provider it could use, whether it calls it or not.
 *
 * The import is written out at each SDK (`new LazySdk(() => import('openai'))`) so
 * bundlers still see and include it.
 */
import { apiKeysOf } from './missing-api-key-error.js';
import { newClient } from './provider-adapter.js';

/** One SDK module, imported on the first {@link LazySdk.load}. */
export class LazySdk<Sdk> {
  private module: Sdk | undefined;
  private loading: Promise<Sdk> | undefined;

  constructor(private readonly importer: () => Promise<Sdk>) {}

  /** The SDK module, imported once. */
  load(): Promise<Sdk> {
    this.loading ??= this.importer().then((sdk) => (this.module = sdk));
    return this.loading;
  }

  /**
   * The SDK if a request has loaded it, for `instanceof` checks on errors: an error
   * the SDK threw implies it is loaded, so `undefined` means "not an SDK error".
   */
  get loaded(): Sdk | undefined {
    return this.module;
  }
}

/** A client made on its first use (or the application's own, used as given). */
export class LazyClient<Sdk, Client> {
  private client: Promise<Client> | undefined;

  private constructor(
    private readonly sdk: LazySdk<Sdk>,
    private readonly make: (sdk: Sdk) => Client,
    /** The key the client uses, known before it exists (read by `apiKeysOf` for redaction). */
    readonly apiKey: string | undefined,
  ) {}

  /**
   * A client built by `build(sdk, apiKey)` on the first request. `apiKey` is resolved
   * by the caller, so a missing key is still reported when the adapter is created;
   * what the SDK's constructor throws goes out without the key (see `newClient`).
   */
  static create<Sdk, Client>(sdk: LazySdk<Sdk>, apiKey: string, build: (sdk: Sdk, apiKey: string) => Client): LazyClient<Sdk, Client> {
    return new LazyClient(sdk, (loaded) => newClient(apiKey, (key) => build(loaded, key)), apiKey);
  }

  /**
   * The application's own client. The SDK is still loaded before it is handed out,
   * for the error checks (the client was most likely made with it).
   */
  static given<Sdk, Client>(sdk: LazySdk<Sdk>, client: Client): LazyClient<Sdk, Client> {
    return new LazyClient(sdk, () => client, apiKeysOf(client)[0]);
  }

  /** The client, created (and the SDK loaded) on the first call. */
  get(): Promise<Client> {
    this.client ??= this.sdk.load().then((loaded) => this.make(loaded));
    return this.client;
  }
}
