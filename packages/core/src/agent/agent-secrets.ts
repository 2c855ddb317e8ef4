/**
 * The secret values an agent's sessions keep out of everything they save or emit: the
 * API keys of every model the agent holds (its model, each fallback model, the
 * summarizer's model, and the models of the agents it hands tasks to through
 * `asTool()`, and of those that hand tasks to it), the agents' own `secrets`, and the
 * environment's keys and tokens. A key is no less secret for belonging to a model that
 * has not answered yet, or to another agent of the same process: a tool that prints a
 * config file, or an error that echoes a request, shows it all the same. Each adapter
 * also takes its own key out of its errors; this list is what the session's one
 * redactor replaces everywhere else.
 *
 * Agents and their agent tools are linked here, outside their public types: an agent
 * registers its options when built, an agent tool is marked with the agent it runs,
 * and an agent built with such a tool is recorded as that agent's caller.
 */
import type { ModelAdapter } from '../model/model-adapter.js';
import type { FallbackModel, FallbackOptions } from '../loop/fallback/model-fallback.js';
import type { SummarizerOptions } from '../loop/summarizer/background-summarizer.js';
import type { AgentTool } from '../loop/tool.js';
import { environmentSecrets } from '../support/secret-redactor.js';

/** What {@link agentSecrets} reads of an agent's options. */
export interface SecretSources {
  model: ModelAdapter;
  fallback?: readonly (ModelAdapter | FallbackModel)[] | FallbackOptions | undefined;
  summarizer?: SummarizerOptions | undefined;
  secrets?: readonly string[] | undefined;
  tools?: readonly AgentTool[] | undefined;
}

/** The agent an agent tool runs (read through spreads and wrappers: a symbol-keyed own or inherited field). */
const SUB_AGENT = Symbol('episodic.subAgent');
const sourcesOf = new WeakMap<object, SecretSources>();
const callersOf = new WeakMap<object, Set<object>>();

/** Marks `tool` as running `agent` (see `Agent.asTool`). */
export function markSubAgent(tool: AgentTool, agent: object): AgentTool {
  Object.defineProperty(tool, SUB_AGENT, { value: agent, enumerable: true });
  return tool;
}

function subAgentOf(tool: AgentTool): object | undefined {
  return (tool as unknown as Record<symbol, object | undefined>)[SUB_AGENT];
}

/** Records `agent`'s options, and `agent` as the caller of the agents its tools run. */
export function registerAgent(agent: object, options: SecretSources): void {
  sourcesOf.set(agent, options);
  for (const tool of options.tools ?? []) {
    const sub = subAgentOf(tool);
    if (!sub) continue;
    let callers = callersOf.get(sub);
    if (!callers) callersOf.set(sub, (callers = new Set()));
    callers.add(agent);
  }
}

/** The models an agent holds itself: its own, the fallback chain's, the summarizer's. */
function modelsOf(options: SecretSources): ModelAdapter[] {
  const fallback = options.fallback;
  const entries = fallback === undefined ? [] : Array.isArray(fallback) ? fallback : (fallback as FallbackOptions).models;
  const chain = entries.map((entry) => ('stream' in entry ? entry : entry.model));
  return [options.model, ...chain, ...(options.summarizer?.model ? [options.summarizer.model] : [])];
}

/** The keys and secrets of `agent` and of the agents its tools run, down the tree. */
function downward(agent: object, seen: Set<object>): string[] {
  const options = sourcesOf.get(agent);
  if (!options || seen.has(agent)) return [];
  seen.add(agent);
  const keys = modelsOf(options).flatMap((model) => model.secretValues?.() ?? []);
  const subs = (options.tools ?? []).flatMap((tool) => {
    const sub = subAgentOf(tool);
    return sub ? downward(sub, seen) : [];
  });
  return [...keys, ...(options.secrets ?? []), ...subs];
}

/** The agents that call `agent` through a tool, up the tree. */
function upward(agent: object, seen: Set<object>): object[] {
  const found: object[] = [];
  for (const caller of callersOf.get(agent) ?? []) {
    if (seen.has(caller)) continue;
    seen.add(caller);
    found.push(caller, ...upward(caller, seen));
  }
  return found;
}

/** Every secret value a session of `agent` redacts, read now (keys and environment may change between opens). */
export function agentSecrets(agent: object): string[] {
  const seen = new Set<object>();
  const own = downward(agent, seen);
  const callers = upward(agent, new Set([agent])).flatMap((caller) => downward(caller, seen));
  return [...own, ...callers, ...environmentSecrets()];
}
