/**
 * OpenAI's own context management as the loopback Responses server models it, from
 * the compaction guide (https://developers.openai.com/api/docs/guides/compaction) and
 * the SDK types (openai-node `ResponseCompactionItem`, `Reasoning.context`): with
 * `context_management: [{type: 'compaction', compact_threshold}]`, once the rendered
 * input passes the threshold the response carries an opaque `compaction` item
 * (`encrypted_content`) before the reply; it is valid only when sent back unchanged, to
 * the model that made it. `reasoning.context` is 'auto' | 'current_turn' | 'all_turns'
 * on GPT-5.6 and later. Error texts are ours: no recording of these rejections exists.
 */
import { randomBytes } from 'node:crypto';
import type { InputItem } from './openai-responses-validation.js';

/** Models that take `reasoning.context` (OpenRouter's docs: GPT-5.6 and newer). */
const reasoningContextModel = /^gpt-5\.([6-9]|\d{2,})/;
const reasoningContexts = ['auto', 'current_turn', 'all_turns'];

/** Compaction items this server issued, by their encrypted content: the model they are bound to. */
export type IssuedCompactions = Map<string, string>;

/** The problem with the request's context-management fields and compaction items, or undefined. */
export function compactionProblem(
  body: Record<string, unknown>,
  input: readonly InputItem[],
  issued: IssuedCompactions,
): { message: string; code: string } | undefined {
  const context = (body.reasoning as { context?: unknown } | undefined)?.context;
  if (context !== undefined && !reasoningContextModel.test(String(body.model)))
    return { message: `Unsupported parameter: 'reasoning.context' is not supported with this model.`, code: 'unsupported_parameter' };
  if (context !== undefined && !reasoningContexts.includes(String(context)))
    return { message: `Invalid value: '${String(context)}'. Supported values are: 'auto', 'current_turn' and 'all_turns'.`, code: 'invalid_value' };
  const management = body.context_management;
  if (management !== undefined && management !== null) {
    if (!Array.isArray(management)) return { message: `Invalid type for 'context_management': expected an array.`, code: 'invalid_type' };
    for (const [index, entry] of (management as Record<string, unknown>[]).entries())
      if (entry.type !== 'compaction')
        return { message: `Invalid value: 'context_management[${index}].type'. Supported values are: 'compaction'.`, code: 'invalid_value' };
  }
  for (const [position, item] of input.entries()) {
    if (item.type !== 'compaction') continue;
    const model = issued.get(String(item.encrypted_content));
    if (model !== String(body.model))
      return { message: `input[${position}]: the compaction item could not be verified or decrypted.`, code: 'invalid_encrypted_content' };
  }
  return undefined;
}

/** The threshold past which this request compacts, if it asked for compaction. */
export function compactThreshold(body: Record<string, unknown>): number | undefined {
  const entries = Array.isArray(body.context_management) ? (body.context_management as Record<string, unknown>[]) : [];
  const entry = entries.find((candidate) => candidate.type === 'compaction');
  if (!entry) return undefined;
  // The default threshold is not documented; the server then compacts near a 272,000-token window (unverified).
  return typeof entry.compact_threshold === 'number' ? entry.compact_threshold : 200_000;
}

/** Issues a compaction item for `model`, covering `covered` input items. */
export function issueCompaction(model: string, covered: number, issued: IssuedCompactions, id: string): InputItem {
  const encrypted = Buffer.from(JSON.stringify({ model, covered, nonce: randomBytes(6).toString('hex') })).toString('base64');
  issued.set(encrypted, model);
  return { type: 'compaction', id, encrypted_content: encrypted };
}
