/**
 * When the reader of cut results is offered, and the run settings that carry it. The
 * reader is among the tools the model sees (and the loop runs) from the first call of
 * every run that may ever need it: when the agent has tools of its own (any of their
 * results may come back over the cap), or the transcript holds a tool result (history
 * brought in). `tools` never change within a session: a tool added after the first cut
 * would change the prefix every later call shares, a full prompt-cache miss on every
 * provider and, on models that bind their thinking to it, the loss of that thinking.
 * Worked out from the settings and the transcript (which only grows), not remembered
 * by a process, so a resumed session or another worker offers it exactly as this one.
 * An agent without tools and without tool results in its history sees no extra tool.
 */
import type { Message, ToolSpec } from '../../message/message.js';
import { toolResultCaps } from '../../packing/tool-result-caps.js';
import { cutResultReader } from './cut-result-reader.js';
import { FINAL_ANSWER_TOOL } from '../structured-output/structured-output.js';
import type { LoopSettings } from '../loop-types.js';
import type { LoopHook } from '../hooks/loop-hook.js';
import { type ModelCallSettings, OVERFLOW_REPACK_FACTOR } from '../model-call.js';
import type { PackTuning } from '../../packing/pack-types.js';
import type { AgentTool } from '../tool.js';

/**
 * The smallest read worth a tool, in tokens: under it a read holds little more than
 * its header, and the reader's spec takes a large share of the budget. With the
 * default caps, budgets under about 7,500 tokens have no reader.
 */
export const MIN_READ_TOKENS = 256;

/**
 * The largest read, in raw tokens: the past-episode cap at the smallest budget a call
 * of the run may pack with (a repack after an overflow; a hand-off note takes less), so
 * no read is cut again.
 */
export function readerCap(budget: number, pack: PackTuning | undefined): number {
  const smallest = Math.floor(budget * OVERFLOW_REPACK_FACTOR);
  return toolResultCaps({ budget: smallest, toolResultCap: pack?.toolResultCap, currentToolResultCap: pack?.currentToolResultCap })
    .pastCap;
}

/** Decides, per call, whether the reader is offered (see the module comment). */
export class CutResultOffer {
  private seen = 0;
  private found = false;
  private offered: { base: ModelCallSettings; settings: ModelCallSettings } | undefined;

  /** `tools`: the reader by its name. */
  constructor(
    private readonly spec: ToolSpec,
    private readonly tools: ReadonlyMap<string, AgentTool>,
  ) {}

  /** True when the run may need the reader: the agent has tools of its own, or `messages` hold a tool result. */
  mayNeed(settings: ModelCallSettings, messages: readonly Message[]): boolean {
    // The structured answer's tool (tool mode, per run) ends the run: it brings no result to cut.
    if (settings.toolSpecs.some((spec) => spec.name !== FINAL_ANSWER_TOOL && spec.name !== this.spec.name)) return true;
    // A durable replay rewinds the transcript: what it holds now is what counts.
    if (messages.length < this.seen) {
      this.seen = 0;
      this.found = false;
    }
    for (; !this.found && this.seen < messages.length; this.seen += 1) this.found = messages[this.seen]?.role === 'tool';
    return this.found;
  }

  /** `settings` for a call or tool batch on `messages`: with the reader among the tools once the run may need it. */
  offer<S extends ModelCallSettings & { tools?: ReadonlyMap<string, AgentTool> }>(
    settings: S,
    messages: readonly Message[],
  ): S {
    if (!this.mayNeed(settings, messages)) return settings;
    if (this.offered?.base !== settings) {
      const toolSpecs = [...settings.toolSpecs, this.spec];
      const tools = settings.tools ? { tools: new Map([...settings.tools, ...this.tools]) } : {};
      this.offered = { base: settings, settings: { ...settings, toolSpecs, ...tools } };
    }
    return this.offered.settings as S;
  }
}

/**
 * The hook that offers the reader of cut results in one run, when the packer names one
 * (`pack.resultReader`): the reader of `messages()`, added to the calls and tool batches
 * of a run that may need it (a durable run's hook makes its calls steps, as any tool's).
 * None without a reader, or when a read could hold less than {@link MIN_READ_TOKENS}.
 */
export function cutResultHook(settings: LoopSettings, messages: () => readonly Message[]): LoopHook | undefined {
  const name = settings.pack?.resultReader;
  if (name === undefined) return undefined;
  const cap = readerCap(settings.budget, settings.pack);
  if (cap < MIN_READ_TOKENS) return undefined;
  const reader = cutResultReader({ name, messages, maxTokens: cap, counter: settings.tokenizer });
  const offer = new CutResultOffer(reader.spec, new Map([[name, reader]]));
  return { name: 'cut-result-reader', settings: (base, current) => offer.offer(base, current) };
}
