/**
 * The previous release's flat `AgentOptions` names (`DeprecatedAgentOptions`), kept for
 * one release: each is accepted, moved to its place in the grouped options, and named
 * in one deprecation warning of the agent; so is the policy name `episodic`, now
 * `packer`. The same option given under both names with different values is an
 * `OptionConflictError`: neither may win silently.
 */
import { OptionConflictError } from '../errors/input-errors.js';
import type { ContextPolicy, DeprecatedContextPolicy } from '../model/native-context.js';
import type {
  AgentOptions,
  ContextOptions,
  DeprecatedAgentOptions,
  ModelCallOptions,
  ReasoningOptions,
  ToolCallOptions,
} from './agent-options.js';

/** The groups of {@link AgentOptions}, each given (empty when the caller gave none). */
interface Groups {
  context: ContextOptions;
  reasoning: ReasoningOptions;
  toolCalls: ToolCallOptions;
  modelCalls: ModelCallOptions;
}

/** The options with every group present, new names only, and the policy as `ContextPolicy`. */
export type GroupedAgentOptions = Omit<AgentOptions, keyof DeprecatedAgentOptions | keyof Groups> &
  Groups & { context: ContextOptions & { policy?: ContextPolicy | undefined } };

/** Where each flat name moved: the old name, its group, its name in the group. */
const MOVED: readonly (readonly [keyof DeprecatedAgentOptions, keyof Groups, string])[] = [
  ['budget', 'context', 'budget'],
  ['retention', 'context', 'retention'],
  ['nativeContext', 'context', 'native'],
  ['pack', 'context', 'pack'],
  ['cutResults', 'context', 'cutResults'],
  ['summarizer', 'context', 'summarizer'],
  ['tokenizer', 'context', 'tokenizer'],
  ['handoff', 'reasoning', 'handoff'],
  ['persistReasoning', 'reasoning', 'persist'],
  ['reasoningOutput', 'reasoning', 'output'],
  ['replayCache', 'reasoning', 'replayCache'],
  ['maxConcurrency', 'toolCalls', 'maxConcurrency'],
  ['toolTimeoutMs', 'toolCalls', 'timeoutMs'],
  ['approvalPolicy', 'toolCalls', 'approvalPolicy'],
  ['maxOutputTokens', 'modelCalls', 'maxOutputTokens'],
  ['retry', 'modelCalls', 'retry'],
  ['providerOptions', 'modelCalls', 'providerOptions'],
  ['fallback', 'modelCalls', 'fallback'],
];

/** The warning for one deprecated name. */
function deprecation(old: string, replacement: string): string {
  return `AgentOptions.${old} is deprecated: use ${replacement} (the old name is removed in the next release).`;
}

/** The policy under its current name; `episodic` (the old name) is `packer`, with a warning. */
export function currentPolicy(
  policy: ContextPolicy | DeprecatedContextPolicy | undefined,
  where: string,
  warnings: string[],
): ContextPolicy | undefined {
  if (policy !== 'episodic') return policy;
  warnings.push(`the context policy 'episodic' (${where}) is now called 'packer': use 'packer' (the old name is removed in the next release).`);
  return 'packer';
}

/**
 * `options` in the grouped shape, with a deprecation warning for each old name found
 * in them. Throws {@link OptionConflictError} when an old name and its new one are both
 * given with different values (by `Object.is`: the same object under both names is one
 * value; two objects are two values, whatever they hold, since a deep comparison would
 * have to guess at functions such as `retry.sleep`).
 */
export function groupOptions(options: AgentOptions): { grouped: GroupedAgentOptions; deprecations: string[] } {
  const deprecations: string[] = [];
  const given = options.context;
  const context: ContextOptions = typeof given === 'string' ? { policy: given } : { ...given };
  if (typeof given === 'string') deprecations.push(deprecation(`context as a string ('${given}')`, 'context: { policy }'));
  const groups: Groups = {
    context,
    reasoning: { ...options.reasoning },
    toolCalls: { ...options.toolCalls },
    modelCalls: { ...options.modelCalls },
  };
  for (const [old, group, name] of MOVED) {
    const value = options[old];
    if (value === undefined) continue;
    const target = groups[group] as Record<string, unknown>;
    if (target[name] !== undefined && !Object.is(target[name], value)) {
      throw new OptionConflictError(old, `${group}.${name}`);
    }
    target[name] = value;
    deprecations.push(deprecation(old, `${group}.${name}`));
  }
  context.policy = currentPolicy(context.policy, 'AgentOptions.context.policy', deprecations);
  // A copy without the old names: every other top-level field passes through as given.
  const grouped: Record<string, unknown> = { ...options, ...groups };
  for (const [old] of MOVED) delete grouped[old];
  return { grouped: grouped as unknown as GroupedAgentOptions, deprecations };
}
