/**
 * Anthropic on-demand compaction as the loopback server models it, from the docs
 * (https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand,
 * .../compaction-keep-recent-turns, .../compaction-background, read 2026-12-05) and the
 * SDK's types (`BetaCompactionConfig`, `BetaCompactionBlockParam`, the `Compaction*Error`
 * classes of @anthropic-ai/sdk 1.12 to 1.17). Documented rules enforced:
 * - a request with `compaction` is a compaction request: it needs the beta header
 *   `compact-2026-09-04`, `type: "summarize"` and at most 16,384 characters of
 *   `instructions`; it cannot carry `context_management`, `stop_sequences`,
 *   `output_config.format`, a `tool_choice` of type `any` or `tool`, or
 *   `output_config.task_budget.remaining`; it needs user or assistant content
 *   (`compaction_nothing_to_summarize`) and its last assistant turn must not end in an
 *   unanswered tool call (`compaction_incomplete_turn`);
 * - its answer is the signed `compaction` block alone (`stop_reason: "compaction"`;
 *   streamed, the block comes whole in `content_block_start`, no delta), top-level usage
 *   zero and the pass in `usage.iterations`; a scripted failure answers with no block and
 *   another stop reason, or with a block whose content is null, or a transient 529
 *   `compaction_unavailable`;
 * - a request that carries a signed block needs the beta header (without it the block's
 *   type is not one the validator knows), sends it exactly as returned (signature and
 *   content checked: `compaction_signature_invalid`, `compaction_content_mismatch`; no
 *   field the API did not return), first in `messages` (`compaction_block_misplaced`),
 *   one block with content at most (`compaction_block_ambiguous`), and no
 *   `compact_20260112` edit.
 * Kept thinking after a swap is checked as the binding rules check any thinking (bound to
 * the prefix as sent): stricter than the API, which accepts the swap under conditions.
 * Error texts are ours, after the docs' table; tests match their gist or `error_code`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { AnthropicBody, WireBlock } from './anthropic-validation.js';
import { sendJson, startSse, writeSseEvent } from './sse.js';

export const onDemandBeta = 'compact-2026-09-04';

/** How the next compaction request is answered: a summary (default), or a failure of the given kind. */
export interface ScriptedCompaction {
  outcome?: 'summary' | 'max_tokens' | 'null-content' | 'unavailable';
  /** The answer waits for this (a compaction that takes a while, for background tests). */
  until?: Promise<void>;
}

/** A problem with a request, as the API reports it: the message and, where the API has one, its `error_code`. */
export interface OnDemandProblem {
  message: string;
  code?: string;
}

const blockFields = new Set(['type', 'content', 'signature', 'encrypted_content', 'tool_changes', 'cache_control']);

/** The server's on-demand compaction: what it issued, its checks and its answers. */
export class OnDemandCompactions {
  private readonly secret = randomBytes(16).toString('hex');
  private readonly script: ScriptedCompaction[] = [];
  /** Summaries this server issued, by signature. */
  readonly issued = new Map<string, string>();

  /** Scripts the next compaction answers (each used once; a summary when none is left). */
  enqueue(...answers: ScriptedCompaction[]): void {
    this.script.push(...answers);
  }

  /** True when `body` asks for a compaction. */
  static isRequest(body: AnthropicBody): boolean {
    return body.compaction !== undefined && body.compaction !== null;
  }

  /** Signed on-demand blocks of `body` (threshold blocks carry no signature). */
  static signedBlocks(body: AnthropicBody): { block: WireBlock; message: number; position: number }[] {
    return body.messages.flatMap((message, index) =>
      message.content.flatMap((block, position) =>
        block.type === 'compaction' && 'signature' in block ? [{ block, message: index, position }] : [],
      ),
    );
  }

  /** The first reason the API would refuse the request's on-demand parts, or undefined. */
  problem(body: AnthropicBody, headers: Record<string, string>): OnDemandProblem | undefined {
    const beta = (headers['anthropic-beta'] ?? '').split(',').map((value) => value.trim()).includes(onDemandBeta);
    if (OnDemandCompactions.isRequest(body)) {
      const problem = requestProblem(body, beta);
      if (problem) return problem;
    }
    return this.carriedProblem(body, beta);
  }

  private carriedProblem(body: AnthropicBody, beta: boolean): OnDemandProblem | undefined {
    const signed = OnDemandCompactions.signedBlocks(body);
    if (signed.length === 0) return undefined;
    const first = signed[0] as (typeof signed)[number];
    if (!beta)
      return { message: `messages.${first.message}.content.${first.position}: Input tag 'compaction' found using 'type' does not match any of the expected tags` };
    for (const { block, message, position } of signed) {
      const extra = Object.keys(block).find((key) => !blockFields.has(key));
      if (extra) return { message: `messages.${message}.content.${position}.compaction.${extra}: Extra inputs are not permitted` };
      if (block.content === '') return { message: `messages.${message}.content.${position}.compaction.content: empty string content is not allowed` };
      if (block.content === null || block.content === undefined) continue;
      const issued = this.issued.get(String(block.signature));
      if (issued === undefined) return { message: 'the compaction block\'s signature does not verify', code: 'compaction_signature_invalid' };
      if (issued !== block.content) return { message: 'the compaction block\'s content differs from the text its signature recorded', code: 'compaction_content_mismatch' };
    }
    const withContent = signed.filter(({ block }) => typeof block.content === 'string');
    if (withContent.length > 1) return { message: 'messages holds more than one compaction block with content; send only the newest', code: 'compaction_block_ambiguous' };
    if (withContent.some(({ message, position }) => message !== 0 || position !== 0))
      return { message: 'the compaction block is not the first block of the conversation', code: 'compaction_block_misplaced' };
    const edits = (body.context_management as { edits?: { type?: string }[] } | undefined)?.edits ?? [];
    if (edits.some((edit) => edit.type === 'compact_20260112'))
      return { message: 'context_management.edits: compact_20260112 cannot run on a request that carries a signed compaction block' };
    return undefined;
  }

  /** `body` without its signed blocks (for the threshold-compaction rules, which know only their own blocks). */
  static withoutSignedBlocks(body: AnthropicBody): AnthropicBody {
    const messages = body.messages
      .map((message) => ({ ...message, content: message.content.filter((block) => !(block.type === 'compaction' && 'signature' in block)) }))
      .filter((message) => message.content.length > 0);
    return { ...body, messages };
  }

  /** Answers a compaction request (streamed or not) as the next scripted outcome says. */
  async answer(response: ServerResponse, body: AnthropicBody, record?: { status: number; error?: string }): Promise<void> {
    const scripted = this.script.shift() ?? {};
    await scripted.until;
    const outcome = scripted.outcome ?? 'summary';
    if (outcome === 'unavailable') {
      // The docs' transient failure: 529 with `error.details.error_code`, to be retried.
      const error = { type: 'overloaded_error', message: 'Overloaded', details: { error_code: 'compaction_unavailable' } };
      if (record) Object.assign(record, { status: 529, error: error.message });
      sendJson(response, 529, { type: 'error', error });
      return;
    }
    const texts = body.messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === 'text' ? [String(block.text)] : block.type === 'compaction' && block.content ? [`(${String(block.content)})`] : [])),
    );
    const content = `Summary of ${body.messages.length} messages: ${texts.join(' | ')}`;
    const inputTokens = Math.ceil(JSON.stringify({ s: body.system, t: body.tools, m: body.messages }).length / 4);
    const outputTokens = outcome === 'summary' ? Math.ceil(content.length / 4) : 0;
    let blocks: Record<string, unknown>[] = [];
    if (outcome === 'summary') {
      const signature = createHmac('sha256', this.secret).update(`${body.model}\n${content}`).digest('base64');
      this.issued.set(signature, content);
      blocks = [{ type: 'compaction', content, signature }];
    } else if (outcome === 'null-content') blocks = [{ type: 'compaction', content: null }];
    const stopReason = outcome === 'max_tokens' ? 'max_tokens' : 'compaction';
    const iteration = { type: 'compaction', input_tokens: inputTokens, output_tokens: outputTokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const zero = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
    const usage = { ...zero, iterations: [iteration] };
    const message = { id: `msg_${randomBytes(12).toString('hex')}`, type: 'message', role: 'assistant', model: body.model };
    if (body.stream !== true) {
      sendJson(response, 200, { ...message, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
      return;
    }
    startSse(response);
    const event = (data: Record<string, unknown>) => writeSseEvent(response, data, { event: String(data.type) });
    event({ type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, iterations: undefined } } });
    event({ type: 'ping' });
    // Streamed, the block arrives whole: one start carrying it, then its stop, no delta.
    blocks.forEach((block, index) => {
      event({ type: 'content_block_start', index, content_block: block });
      event({ type: 'content_block_stop', index });
    });
    event({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null }, usage });
    event({ type: 'message_stop' });
    response.end();
  }
}

/** The first reason a compaction request itself is refused, or undefined. */
function requestProblem(body: AnthropicBody, beta: boolean): OnDemandProblem | undefined {
  if (!beta) return { message: `compaction: the \`compaction\` parameter requires anthropic-beta: ${onDemandBeta}` };
  const config = body.compaction as Record<string, unknown>;
  if (config.type !== 'summarize') return { message: `compaction.type: Input should be 'summarize'` };
  const extra = Object.keys(config).find((key) => key !== 'type' && key !== 'instructions');
  if (extra) return { message: `compaction.${extra}: Extra inputs are not permitted` };
  if (typeof config.instructions === 'string' && config.instructions.length > 16_384)
    return { message: 'compaction.instructions: String should have at most 16384 characters' };
  if (body.context_management !== undefined) return { message: 'compaction: cannot be combined with context_management' };
  if (body.stop_sequences !== undefined) return { message: 'stop_sequences: not supported on a compaction request' };
  const output = body.output_config as { format?: unknown; task_budget?: { remaining?: unknown } } | undefined;
  if (output?.format !== undefined) return { message: 'output_config.format: not supported on a compaction request' };
  if (output?.task_budget?.remaining !== undefined) return { message: 'output_config.task_budget.remaining: not supported with compaction' };
  const choice = (body.tool_choice as { type?: string } | undefined)?.type;
  if (choice === 'any' || choice === 'tool') return { message: `tool_choice: type '${choice}' is not supported on a compaction request` };
  if (!body.messages.some((message) => message.content.length > 0))
    return { message: 'messages holds no user or assistant content to summarize', code: 'compaction_nothing_to_summarize' };
  const last = body.messages.at(-1);
  if (last?.role === 'assistant' && last.content.some((block) => block.type === 'tool_use'))
    return { message: 'the compaction request ends on an assistant turn whose tool call has no result yet; send its tool results first', code: 'compaction_incomplete_turn' };
  return undefined;
}

/** Sends a refusal with the API's shape (and `details.error_code` where it has one). */
export function sendOnDemandProblem(response: ServerResponse, problem: OnDemandProblem): void {
  const error = { type: 'invalid_request_error', message: problem.message, ...(problem.code ? { details: { error_code: problem.code } } : {}) };
  sendJson(response, 400, { type: 'error', error, request_id: `req_${randomBytes(8).toString('hex')}` });
}
