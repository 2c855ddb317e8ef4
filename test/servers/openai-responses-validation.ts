/**
 * The Responses API's input rules, as the loopback server enforces them, and the
 * neutral view of a request for the conformance suite. Error texts are the real
 * API's (docs/providers.md, "OpenAI Responses API"); where the wording is unverified the
 * code (`invalid_encrypted_content`) is the documented part.
 *
 * @see https://platform.openai.com/docs/guides/reasoning#keeping-reasoning-items-in-context
 */
import { rewrittenArguments } from './model-json.js';
import type { RequestView } from './scripted-server.js';

/** What the server issued for one output item, to check it when it comes back. */
export interface IssuedItem {
  type: 'reasoning' | 'message' | 'function_call';
  model: string;
  /** Reasoning items: the encrypted content handed out. */
  encrypted?: string;
  /** Reasoning items: the scripted traces (the summary texts). */
  texts?: string[];
  /** The reasoning item this item was produced right after. */
  reasoningId?: string;
  /** Reasoning items: the item produced right after. */
  followingId?: string;
  /** Messages of phase models: the phase handed out, and the text it labels. */
  phase?: string;
  text?: string;
  /** Function calls (registered by call id): the arguments string the model wrote. */
  arguments?: string;
}

/** Models that label assistant messages with `phase` and want it back (gpt-5.3-codex and later). */
export const phaseModel = /^gpt-5\.([3-9]|\d{2,})/;

export type InputItem = Record<string, unknown>;

/** A request the server refuses: HTTP status, message and error code. */
export interface Rejection {
  status: number;
  message: string;
  code: string | null;
}

const fail = (message: string, code: string | null = null, status = 400): Rejection => ({ status, message, code });

/** The input items of a request body (a string input is one user message). */
export function inputItems(body: Record<string, unknown>): InputItem[] {
  if (typeof body.input === 'string') return [{ role: 'user', content: body.input }];
  return Array.isArray(body.input) ? (body.input as InputItem[]) : [];
}

/** Applies the input rules; returns the first violation, if any. */
export function validateResponsesInput(
  body: Record<string, unknown>,
  issued: ReadonlyMap<string, IssuedItem>,
): Rejection | undefined {
  const input = inputItems(body);
  const model = String(body.model);
  const calls = new Set<string>();
  const outputs = new Set<string>();
  for (const [position, item] of input.entries()) {
    const id = typeof item.id === 'string' ? item.id : undefined;
    if (item.type === 'reasoning') {
      if (!Array.isArray(item.summary)) {
        return { status: 400, message: `Missing required parameter: 'input[${position}].summary'.`, code: 'missing_required_parameter' };
      }
      const problem = checkReasoningItem(item, id, input[position + 1], issued.get(id ?? ''), model, body.store);
      if (problem) return problem;
    } else if (id && (item.type === 'function_call' || item.type === 'message')) {
      const reasoningId = issued.get(id)?.reasoningId;
      const sent = input.slice(0, position).some((earlier) => earlier.id === reasoningId);
      if (reasoningId && !sent) {
        return fail(
          `Item '${id}' of type '${item.type}' was provided without its required 'reasoning' item: '${reasoningId}'.`,
        );
      }
    }
    const lostPhase = phaseProblem(item, position, issued, model);
    if (lostPhase) return lostPhase;
    if (item.type === 'function_call') {
      const known = issued.get(String(item.call_id));
      if (known?.arguments !== undefined && known.model === model && item.arguments !== known.arguments)
        return fail(rewrittenArguments(`input[${position}].arguments`, String(item.call_id)));
      calls.add(String(item.call_id));
    }
    if (item.type === 'function_call_output') {
      if (!calls.has(String(item.call_id))) {
        return fail(`No tool call found for function call output with call_id ${String(item.call_id)}.`);
      }
      outputs.add(String(item.call_id));
    }
  }
  const unanswered = [...calls].find((callId) => !outputs.has(callId));
  return unanswered ? fail(`No tool output found for function call ${unanswered}.`) : undefined;
}

/**
 * Strict rule beyond the API (it takes a message without its phase, and quality
 * drops): an assistant message this model produced with a phase must carry it back,
 * with its item id or without (found by its text then).
 */
function phaseProblem(
  item: InputItem,
  position: number,
  issued: ReadonlyMap<string, IssuedItem>,
  model: string,
): Rejection | undefined {
  if (item.role !== 'assistant') return undefined;
  const text = typeof item.content === 'string' ? item.content : messageText(item.content);
  const known =
    (typeof item.id === 'string' ? issued.get(item.id) : undefined) ??
    [...issued.values()].find((candidate) => candidate.phase && candidate.model === model && candidate.text === text);
  if (!known?.phase || known.model !== model || item.phase === known.phase) return undefined;
  return fail(
    `strict loopback rule (not an API error): input[${position}] is an assistant message without its phase '${known.phase}'; ${model} wants phase back on every assistant message.`,
  );
}

function messageText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return (content as { text?: string }[]).map((part) => part.text ?? '').join('');
}

function checkReasoningItem(
  item: InputItem,
  id: string | undefined,
  next: InputItem | undefined,
  known: IssuedItem | undefined,
  model: string,
  store: unknown,
): Rejection | undefined {
  if (typeof item.encrypted_content !== 'string') {
    if (store === true) return undefined;
    return fail(
      `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. ` +
        'Try again with `store` set to true, or remove this item from your input.',
      null,
      404,
    );
  }
  if (!known || known.encrypted !== item.encrypted_content || known.model !== model) {
    return fail(`The encrypted content for item ${id} could not be verified.`, 'invalid_encrypted_content');
  }
  if (known.followingId && next?.id !== known.followingId) {
    return fail(`Item '${id}' of type 'reasoning' was provided without its required following item.`);
  }
  return undefined;
}

/** The provider-neutral view of a Responses request. */
export function viewOfResponsesRequest(
  body: Record<string, unknown>,
  issued: ReadonlyMap<string, IssuedItem>,
): RequestView {
  const input = inputItems(body);
  const echoedReasoning: string[] = [];
  for (const item of input) {
    if (item.type !== 'reasoning') continue;
    const known = issued.get(String(item.id));
    if (known && known.encrypted === item.encrypted_content && known.model === body.model) {
      echoedReasoning.push(...(known.texts ?? []));
    }
  }
  const outputs = input.filter((item) => item.type === 'function_call_output');
  return {
    model: String(body.model),
    echoedReasoning,
    reasoningItems: input.filter((item) => item.type === 'reasoning').length,
    toolCallIds: input.filter((item) => item.type === 'function_call').map((item) => String(item.call_id)),
    toolResultIds: outputs.map((item) => String(item.call_id)),
    // The wire has no error flag: the adapter marks failed results in the output text.
    toolErrorIds: outputs
      .filter((item) => /^\[tool error\]/.test(String(item.output)))
      .map((item) => String(item.call_id)),
    userTexts: input.filter((item) => item.role === 'user').map(userText),
    messageCount: input.length,
    cacheBreakpoints: 0,
  };
}

function userText(item: InputItem): string {
  if (typeof item.content === 'string') return item.content;
  if (!Array.isArray(item.content)) return '';
  return (item.content as { type?: string; text?: string }[])
    .map((part) => (part.type === 'input_text' ? (part.text ?? '') : ''))
    .join('');
}
