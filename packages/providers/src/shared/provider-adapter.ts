/**
 * The one shape every adapter of this package has: a factory
 * (`create<Wire>Adapter(options)`) returns a plain object with the core
 * {@link ModelAdapter} contract, the profile in force, and `prepare()`, which
 * builds the wire request without sending it. The SDK client lives in the
 * factory's closure, so inspecting or logging an adapter never shows its API key.
 */
import {
  type Message,
  type ModelAdapter,
  type ModelProfile,
  type ModelRef,
  type ModelRequest,
  type ModelStreamEvent,
  type ProviderToolPart,
  SecretRedactor,
} from '@episodic/core';
import { unlistedModelWarning } from '../profiles/unlisted-model.js';

/** A warning `stream()` yields before any model output; `code` is set on warnings meant to be matched. */
export interface AdapterWarning {
  message: string;
  code?: string;
}

/** A request as an adapter would send it. */
export interface PreparedRequest<Body> {
  /** The SDK request body. */
  body: Body;
  /** Warnings found while building it. */
  warnings: AdapterWarning[];
}

/** A model adapter of `@episodic/providers`: core's `ModelAdapter` plus its profile and `prepare()`. */
export interface ProviderAdapter<Body, Profile extends ModelProfile = ModelProfile> extends ModelAdapter {
  /** The profile this adapter runs with (table row, then the options' overrides). */
  readonly profile: Profile;
  /** Builds the wire request for a packed neutral request without sending it (for tests and debugging). */
  prepare(request: ModelRequest): PreparedRequest<Body>;
}

/** What differs between wire APIs; {@link createProviderAdapter} builds the adapter around it. */
export interface AdapterParts<Prepared extends PreparedRequest<unknown>, Raw, Profile extends ModelProfile> {
  model: ModelRef;
  profile: Profile;
  prepare: (request: ModelRequest) => Prepared;
  /** Opens the SDK stream for a prepared request. */
  open: (prepared: Prepared, signal: AbortSignal | undefined) => Promise<Raw>;
  /** Maps the SDK stream to neutral events; the last one is `finish`. */
  map: (raw: Raw, prepared: Prepared) => AsyncIterable<ModelStreamEvent>;
  /** Maps anything thrown while opening or reading to a typed error. */
  mapError: (error: unknown, signal: AbortSignal | undefined) => Error;
  /** The client's API key(s) (see `apiKeysOf`): kept out of errors here and out of tool results by the agent. */
  secretValues: () => string[];
  /** True when `prepare` maps `request.nativeContext`; otherwise a request that has it gets a warning. */
  nativeContext?: boolean;
}

/**
 * The adapter object every factory returns: `prepare` as given, and `stream`, which
 * prepares the request, yields its warnings (on the first call also the one for a
 * model id that only prefix-matches its profile, see {@link unlistedModelWarning}), opens the SDK stream, maps its events
 * and turns whatever the SDK throws into a typed error, with the API key redacted
 * (a provider may echo it in an error message).
 */
export function createProviderAdapter<Prepared extends PreparedRequest<unknown>, Raw, Profile extends ModelProfile>(
  parts: AdapterParts<Prepared, Raw, Profile>,
): ProviderAdapter<Prepared['body'], Profile> & { prepare(request: ModelRequest): Prepared } {
  const { model, profile, prepare, open, map, mapError, secretValues } = parts;
  // Once per adapter: the id does not change between calls, and a warning on every call is noise.
  let unlisted = unlistedModelWarning(model, profile);
  return {
    model,
    profile,
    prepare,
    secretValues,
    async* stream(request, { signal } = {}) {
      const prepared = prepare(request);
      if (unlisted) yield { type: 'warning', ...unlisted };
      unlisted = undefined;
      for (const warning of prepared.warnings) yield { type: 'warning', ...warning };
      if (request.nativeContext && !parts.nativeContext) {
        const message = `${model.provider}: this API has no native context management; nativeContext not sent (the packer manages the context).`;
        yield { type: 'warning', message, code: 'native-context-unsupported' };
      }
      try {
        yield* map(await open(prepared, signal), prepared);
      } catch (error) {
        throw providerError({ mapError, secretValues }, error, signal);
      }
    },
  };
}

/** How an adapter turns what its SDK throws into the error its caller sees. */
export type ErrorParts = Pick<AdapterParts<PreparedRequest<unknown>, unknown, ModelProfile>, 'mapError' | 'secretValues'>;

/** The typed error for what the SDK threw, with the API key redacted (a provider may echo it). */
function providerError(parts: ErrorParts, error: unknown, signal: AbortSignal | undefined): Error {
  return withoutKeys(parts.mapError(error, signal), parts.secretValues());
}

/**
 * `error` (and its causes) with the API keys replaced, in place. The one place an
 * adapter's key is taken out of an error, on every path: the stream, calls beside it
 * ({@link callProvider}) and the SDK client's constructor ({@link newClient}). The agent
 * loop does not redact the key again; it takes out only its own secrets and the environment's.
 */
function withoutKeys<T>(error: T, keys: readonly string[]): T {
  return new SecretRedactor(keys).redactError(error);
}

/** The SDK client `build` makes with `apiKey`; what its constructor throws goes out without the key. */
export function newClient<Client>(apiKey: string, build: (apiKey: string) => Client): Client {
  try {
    return build(apiKey);
  } catch (error) {
    throw withoutKeys(error, [apiKey]);
  }
}

/**
 * Runs an SDK call made beside the stream (token counting) with the same error
 * mapping and key redaction as `stream`.
 */
export async function callProvider<T>(
  parts: ErrorParts,
  signal: AbortSignal | undefined,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw providerError(parts, error, signal);
  }
}

/** Warnings for provider options this adapter does not know (ignored, never an error). */
export function unknownOptionWarnings(
  provider: string,
  options: Record<string, unknown> | undefined,
  known: ReadonlySet<string>,
): AdapterWarning[] {
  return Object.keys(options ?? {})
    .filter((key) => !known.has(key))
    .map((key) => ({ message: `${provider}: unknown provider option "${key}" ignored` }));
}

/**
 * One warning for the provider-tool parts (tools a provider ran itself, blocks and
 * items an adapter kept without understanding them) that this call leaves out: their
 * wire form is their producer's, so only that provider and model get them back.
 *
 * Other models' reasoning and opaque data are not removed here: the agent loop does
 * that once, before every call (core's `stripForeignReasoning`, with its warning), so
 * an adapter is handed a request that holds none. A caller that streams from an
 * adapter without the agent calls `stripForeignReasoning` (`@episodic/core/reasoning`) first.
 */
export function leftOutProviderTools(messages: readonly Message[], model: ModelRef): AdapterWarning[] {
  const names = new Map<string, number>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'provider-tool') continue;
      const data = part.providerData as ProviderToolPart['providerData'] | undefined;
      if (data !== undefined && data.provider === model.provider && data.model === model.id) continue;
      names.set(part.name, (names.get(part.name) ?? 0) + 1);
    }
  }
  if (names.size === 0) return [];
  const count = [...names.values()].reduce((sum, value) => sum + value, 0);
  const list = [...names.entries()].map(([name, n]) => `${name} x${n}`).join(', ');
  return [{
    code: 'provider-tool-dropped',
    message: `${count} provider-tool part(s) of another provider or model were not sent to ${model.provider}/${model.id} (${list}): their wire form is valid only for the model that produced them`,
  }];
}

/** Plain warning texts as {@link AdapterWarning}s (no code). */
export function plainWarnings(...groups: readonly (readonly string[])[]): AdapterWarning[] {
  return groups.flat().map((message) => ({ message }));
}
