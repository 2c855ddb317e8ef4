/**
 * The agent's `context.cutResults` option: whether the packer's markers name the reader of
 * cut results (`read_cut_result`, see loop/cut-results/cut-result-reader.ts), and the check that
 * no tool of the agent's own takes its name.
 */
import { InvalidArgumentError } from '../errors/input-errors.js';
import { MIN_READ_TOKENS, readerCap } from '../loop/cut-results/cut-result-offer.js';
import { CUT_RESULT_READER } from '../loop/cut-results/cut-result-reader.js';
import type { PackTuning } from '../packing/pack-types.js';
import { type AgentTool, assertToolName } from '../loop/tool.js';

/**
 * What the model can do about a tool result the packer shortened: read the cut part
 * with the built-in reader (`readable`), or nothing (`cut`). See `AgentOptions.context.cutResults`.
 */
export type CutResults = 'readable' | 'cut';

/**
 * The agent's packing with the reader the packer names in its markers (`pack.resultReader`
 * when given, else `read_cut_result`): none with `cut`, or when the budget is too small
 * for a read worth a tool (the loop then builds no reader either; see cut-result-offer.ts).
 */
export function packingWithReader(cutResults: CutResults | undefined, budget: number, pack: PackTuning): PackTuning {
  if (cutResults !== undefined && cutResults !== 'readable' && cutResults !== 'cut') {
    throw new InvalidArgumentError(`cutResults must be 'readable' or 'cut' (got ${JSON.stringify(cutResults)}).`);
  }
  const { resultReader, ...rest } = pack;
  if (resultReader !== undefined) assertToolName(resultReader);
  if (cutResults === 'cut' || readerCap(budget, pack) < MIN_READ_TOKENS) return rest;
  return { ...rest, resultReader: resultReader ?? CUT_RESULT_READER };
}

/** Throws when a tool of the agent's own has the reader's name, naming the two ways out. */
export function checkReaderName(tools: readonly AgentTool[], reader: string | undefined): void {
  if (reader === undefined || !tools.some((tool) => tool.spec.name === reader)) return;
  throw new InvalidArgumentError(
    `the agent has a tool named "${reader}", the name of the built-in reader of cut tool results ` +
      `(cutResults: 'readable', the default): rename your tool, or pass cutResults: 'cut' to go without the reader.`,
  );
}
