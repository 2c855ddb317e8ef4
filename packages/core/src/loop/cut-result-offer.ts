/**
 * When the reader of cut results is offered, and the run settings that carry it. The
 * reader joins the tools the model sees (and the loop runs) from the first call whose
 * transcript holds a tool result over the cap, and stays from then on: worked out
 * from the transcript (which only grows), not remembered by a process, so a resumed
 * session or another worker offers it exactly when this one would. Agents whose
 * results are never cut see no extra tool, and their requests are as they were.
 */
import type { Message, ToolSpec } from '../message/message.js';
import { type PackedForms, packedFormsFor } from '../packing/packed-forms.js';
import { toolResultCaps } from '../packing/pack-settings.js';
import { cutResultReader } from './cut-result-reader.js';
import type { LoopSettings, ReaderOffer } from './loop-types.js';
import { type ModelCallSettings, OVERFLOW_REPACK_FACTOR, type PackTuning } from './model-call.js';
import type { AgentTool } from './tool.js';

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
export class CutResultOffer implements ReaderOffer {
  private seen = 0;
  private found = false;
  private offered: { base: ModelCallSettings; settings: ModelCallSettings } | undefined;

  /** `tools`: the reader by its name, as the run executes it (a durable step under a durable run). */
  constructor(
    private readonly spec: ToolSpec,
    private readonly tools: ReadonlyMap<string, AgentTool>,
    private readonly forms: PackedForms,
    private readonly cap: number,
  ) {}

  /** True when `messages` hold a tool result the packer shortens at the cap. */
  holdsCut(messages: readonly Message[]): boolean {
    // A durable replay rewinds the transcript: what it holds now is what counts.
    if (messages.length < this.seen) {
      this.seen = 0;
      this.found = false;
    }
    for (; !this.found && this.seen < messages.length; this.seen += 1) {
      const message = messages[this.seen] as Message;
      if (message.role !== 'tool') continue;
      // Every token is at least one UTF-8 byte, at most three per UTF-16 unit: shorter text cannot be over the cap.
      if (typeof message.content === 'string' && message.content.length * 3 <= this.cap) continue;
      this.found = this.forms.tool(message, this.cap).truncated === true;
    }
    return this.found;
  }

  settingsFor<S extends ModelCallSettings & { tools?: ReadonlyMap<string, AgentTool> }>(
    settings: S,
    messages: readonly Message[],
  ): S {
    if (!this.holdsCut(messages)) return settings;
    if (this.offered?.base !== settings) {
      const toolSpecs = [...settings.toolSpecs, this.spec];
      const tools = settings.tools ? { tools: new Map([...settings.tools, ...this.tools]) } : {};
      this.offered = { base: settings, settings: { ...settings, toolSpecs, ...tools } };
    }
    return this.offered.settings as S;
  }
}

/**
 * The offer of the reader of cut results for one run, when the packer names one
 * (`pack.resultReader`): the reader of `messages()`, added to the calls and tool batches
 * after a cut. `durable` makes its calls steps of a durable run. None without a reader,
 * or when a read could hold less than {@link MIN_READ_TOKENS}.
 */
export function cutResultOffer(
  settings: LoopSettings,
  messages: () => readonly Message[],
  durable?: { tools(tools: ReadonlyMap<string, AgentTool>): Map<string, AgentTool> },
): CutResultOffer | undefined {
  const name = settings.pack?.resultReader;
  if (name === undefined) return undefined;
  const cap = readerCap(settings.budget, settings.pack);
  if (cap < MIN_READ_TOKENS) return undefined;
  const reader = cutResultReader({ name, messages, maxTokens: cap, counter: settings.tokenizer });
  const tools = new Map([[name, reader]]);
  return new CutResultOffer(reader.spec, durable ? durable.tools(tools) : tools, packedFormsFor(settings.tokenizer, name), cap);
}
