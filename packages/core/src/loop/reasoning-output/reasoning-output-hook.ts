/**
 * The controls on what a model streams (`AgentOptions.reasoningOutput`: a reasoning
 * cap, echo suppression; reasoning/output/reasoning-output.ts) as a hook of the
 * loop: every model call goes to its adapter wrapped with them. It sits after the
 * fallback walk, so each model of a chain is wrapped as it is called.
 */
import type { ModelAdapter } from '../../model/model-adapter.js';
import { type ReasoningOutputOptions, withReasoningOutput } from '../../reasoning/output/reasoning-output.js';
import type { LoopHook } from '../hooks/loop-hook.js';

/** The hook of `options`; undefined when they control nothing. */
export function reasoningOutputHook(options: ReasoningOutputOptions | undefined): LoopHook | undefined {
  if (!options || (options.maxReasoningTokens === undefined && !options.echoSuppression)) return undefined;
  // One wrapper per adapter, made at its first call.
  const wrapped = new Map<ModelAdapter, ModelAdapter>();
  const controlled = (model: ModelAdapter): ModelAdapter => {
    let adapter = wrapped.get(model);
    if (!adapter) wrapped.set(model, (adapter = withReasoningOutput(model, options)));
    return adapter;
  };
  return {
    name: 'reasoning-output',
    wrapModelCall: (next) => (settings, call) => next({ ...settings, model: controlled(settings.model) }, call),
  };
}
