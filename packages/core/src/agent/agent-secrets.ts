/**
 * The secret values an agent's sessions keep out of everything they save or emit: the
 * API keys of every model the agent holds (its model, each fallback model, the
 * summarizer's model), the agent's own `secrets`, and the environment's keys and
 * tokens. A key is no less secret for belonging to a model that has not answered yet:
 * a tool that prints a config file, or an error that echoes a request, shows it all
 * the same. Each adapter also takes its own key out of its errors; this list is what
 * the session's one redactor replaces everywhere else.
 */
import type { ModelAdapter } from '../model/model-adapter.js';
import type { FallbackModel, FallbackOptions } from '../loop/model-fallback.js';
import type { SummarizerOptions } from '../loop/background-summarizer.js';
import { environmentSecrets } from '../support/secret-redactor.js';

/** What {@link agentSecrets} reads of the agent's options. */
export interface SecretSources {
  model: ModelAdapter;
  fallback?: readonly (ModelAdapter | FallbackModel)[] | FallbackOptions | undefined;
  summarizer?: SummarizerOptions | undefined;
  secrets?: readonly string[] | undefined;
}

/** The models an agent holds: its own, the fallback chain's, the summarizer's. */
function modelsOf(options: SecretSources): ModelAdapter[] {
  const fallback = options.fallback;
  const entries = fallback === undefined ? [] : Array.isArray(fallback) ? fallback : (fallback as FallbackOptions).models;
  const chain = entries.map((entry) => ('stream' in entry ? entry : entry.model));
  return [options.model, ...chain, ...(options.summarizer?.model ? [options.summarizer.model] : [])];
}

/** Every secret value a session of this agent redacts, read now (keys and environment may change between opens). */
export function agentSecrets(options: SecretSources): string[] {
  const keys = modelsOf(options).flatMap((model) => model.secretValues?.() ?? []);
  return [...keys, ...(options.secrets ?? []), ...environmentSecrets()];
}
