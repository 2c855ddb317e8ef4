/**
 * A fast structural check of the assistant messages adapters return on every step
 * (and of the text messages given to `send()`).
 * The full check (`copyMessage`: depth limit, a JSON round trip, the zod schema of
 * transcript format v1.1) costs about as much as the rest of a step's bookkeeping,
 * and built-in adapters always pass it. This check walks the message once, with no
 * serialising and no allocation, and says yes only for the shapes it knows
 * completely: text, reasoning and tool-call parts, `model`, `usage`, provider data,
 * and extra fields holding plain JSON. It is conservative: a yes means the full
 * check would accept the message unchanged; a no means "not sure", and the caller
 * runs the full check, which refuses a malformed message with an error naming the
 * field. A property test beside it checks the yes side against the full check.
 */
import { hasPlainPrototype } from '../support/plain-object.js';
import { MAX_NESTING_DEPTH } from './transcript-limits.js';

/** Values visited at most; a larger message (or a shared subtree visited many times) takes the full check. */
const MAX_VISITS = 10_000;

type Plain = Record<string, unknown>;

/** One walk's remaining visits (shared by the helpers below). */
interface Walk {
  visits: number;
}

/**
 * The fields this check reads of each object, and the others its schema knows: an
 * object with one of those takes the full check (so a field added to the schema is
 * never waved through as an extra).
 */
interface Fields {
  checked: ReadonlySet<string>;
  unchecked: ReadonlySet<string>;
}

/**
 * Every field transcript format v1.1 knows on the objects this check reads, as
 * their schemas in transcript-schema.ts list them (written out, so that the check
 * builds no zod schema; plain-message.test.ts holds the lists equal to the schemas).
 */
export const SCHEMA_FIELDS = {
  TextPart: ['type', 'text', 'providerData'],
  ReasoningPart: ['type', 'text', 'signature', 'redacted', 'providerData', 'tokens'],
  ToolCallPart: ['type', 'id', 'name', 'args', 'providerData'],
  AssistantMessage: ['role', 'content', 'model', 'usage', 'contextEdits', 'fallback'],
  UserMessage: ['role', 'content', 'injected', 'compaction'],
  ModelRef: ['provider', 'id'],
  ProviderData: ['provider', 'model', 'reasoningFields'],
  Usage: [
    'inputTokens',
    'cachedInputTokens',
    'cacheWriteTokens',
    'outputTokens',
    'reasoningTokens',
    'costUsd',
    'compactionInputTokens',
    'compactionOutputTokens',
    'inputTransformations',
  ],
} as const satisfies Record<string, readonly string[]>;

function fields(known: readonly string[], checked: readonly string[]): Fields {
  return { checked: new Set(checked), unchecked: new Set(known.filter((key) => !checked.includes(key))) };
}

// A Map, not an object literal: a part whose type is 'toString' or '__proto__' must find nothing.
const PART_FIELDS = new Map<string, Fields>([
  ['text', fields(SCHEMA_FIELDS.TextPart, ['type', 'text', 'providerData'])],
  ['reasoning', fields(SCHEMA_FIELDS.ReasoningPart, ['type', 'text', 'signature', 'redacted', 'providerData', 'tokens'])],
  ['tool-call', fields(SCHEMA_FIELDS.ToolCallPart, ['type', 'id', 'name', 'args', 'providerData'])],
]);
const MESSAGE_FIELDS = fields(SCHEMA_FIELDS.AssistantMessage, ['role', 'content', 'model', 'usage']);
const USER_MESSAGE_FIELDS = fields(SCHEMA_FIELDS.UserMessage, ['role', 'content']);
const MODEL_FIELDS = fields(SCHEMA_FIELDS.ModelRef, ['provider', 'id']);
const PROVIDER_DATA_FIELDS = fields(SCHEMA_FIELDS.ProviderData, ['provider', 'model', 'reasoningFields']);
const USAGE_COUNTS = [
  'cachedInputTokens',
  'cacheWriteTokens',
  'reasoningTokens',
  'compactionInputTokens',
  'compactionOutputTokens',
] as const;
const USAGE_FIELDS = fields(SCHEMA_FIELDS.Usage, ['inputTokens', 'outputTokens', 'costUsd', ...USAGE_COUNTS]);

/**
 * True when `value` is an assistant message that transcript format v1.1 accepts as
 * it is (see the module comment); false when only the full check can tell.
 */
export function isPlainAssistantMessage(value: unknown): boolean {
  if (!isPlainObject(value) || value.role !== 'assistant' || !Array.isArray(value.content)) return false;
  const walk: Walk = { visits: 0 };
  if (!extrasArePlain(value, MESSAGE_FIELDS, 1, walk)) return false;
  if (value.model !== undefined && !isModelRef(value.model, walk)) return false;
  if (value.usage !== undefined && !isUsage(value.usage, walk)) return false;
  const { content } = value;
  for (let index = 0; index < content.length; index += 1) {
    if (!isPlainPart(content[index], walk)) return false;
  }
  return true;
}

/**
 * True when `value` is a user message of text (a string, or text parts) that
 * transcript format v1.1 accepts as it is; false when only the full check can tell
 * (images, `injected`, `compaction`, anything odd). `send()` takes such a message
 * without building zod's schemas.
 */
export function isPlainUserMessage(value: unknown): boolean {
  if (!isPlainObject(value) || value.role !== 'user') return false;
  const walk: Walk = { visits: 0 };
  if (!extrasArePlain(value, USER_MESSAGE_FIELDS, 1, walk)) return false;
  const { content } = value;
  if (typeof content === 'string') return true;
  if (!Array.isArray(content)) return false;
  for (let index = 0; index < content.length; index += 1) {
    const part = content[index];
    if (!isPlainObject(part) || part.type !== 'text' || !isPlainPart(part, walk)) return false;
  }
  return true;
}

/** A text, reasoning or tool-call part (at depth 3: message, content, part). */
function isPlainPart(part: unknown, walk: Walk): boolean {
  if (!isPlainObject(part) || typeof part.type !== 'string') return false;
  const known = PART_FIELDS.get(part.type);
  if (!known || !extrasArePlain(part, known, 3, walk)) return false;
  if (part.providerData !== undefined && !isProviderData(part.providerData, walk)) return false;
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string';
    case 'reasoning':
      return (
        typeof part.text === 'string' &&
        (part.signature === undefined || typeof part.signature === 'string') &&
        (part.redacted === undefined || typeof part.redacted === 'boolean') &&
        (part.tokens === undefined || isCount(part.tokens))
      );
    default:
      return (
        isNonEmptyString(part.id) &&
        isNonEmptyString(part.name) &&
        // The schema requires `args` (JSON would drop an undefined one): leave that to the full check.
        part.args !== undefined &&
        isPlainJson(part.args, 4, walk)
      );
  }
}

function isModelRef(value: unknown, walk: Walk): boolean {
  return (
    isPlainObject(value) &&
    typeof value.provider === 'string' &&
    typeof value.id === 'string' &&
    extrasArePlain(value, MODEL_FIELDS, 2, walk)
  );
}

function isUsage(value: unknown, walk: Walk): boolean {
  if (!isPlainObject(value) || !isCount(value.inputTokens) || !isCount(value.outputTokens)) return false;
  for (const key of USAGE_COUNTS) if (value[key] !== undefined && !isCount(value[key])) return false;
  const cost = value.costUsd;
  if (cost !== undefined && !(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 && !Object.is(cost, -0))) return false;
  return extrasArePlain(value, USAGE_FIELDS, 2, walk);
}

/** Provider data of a part (depth 4). */
function isProviderData(value: unknown, walk: Walk): boolean {
  if (!isPlainObject(value) || typeof value.provider !== 'string' || typeof value.model !== 'string') return false;
  const fields = value.reasoningFields;
  if (fields !== undefined) {
    if (!Array.isArray(fields)) return false;
    // A loop, not `every`: a hole would be written as null.
    for (let index = 0; index < fields.length; index += 1) if (typeof fields[index] !== 'string') return false;
  }
  return extrasArePlain(value, PROVIDER_DATA_FIELDS, 4, walk);
}

/**
 * Fields of `value` (an object at `depth`) that this check does not read hold plain
 * JSON and are none its schema knows; and every field it reads directly is one JSON
 * writes too (an own enumerable field).
 */
function extrasArePlain(value: Plain, known: Fields, depth: number, walk: Walk): boolean {
  let checkedWritten = 0;
  for (const key in value) {
    const field = value[key];
    // JSON leaves an undefined field out, and loose objects take any extra field.
    if (field === undefined) continue;
    if (known.checked.has(key)) checkedWritten += 1;
    else if (known.unchecked.has(key) || !isPlainJson(field, depth + 1, walk)) return false;
  }
  let checkedRead = 0;
  for (const key of known.checked) if (value[key] !== undefined) checkedRead += 1;
  return checkedRead === checkedWritten;
}

/**
 * True when `value` (at `depth`, the message being 1) comes out of a JSON round trip
 * the same: strings, booleans, null, finite numbers, arrays and plain objects of
 * those, nested no deeper than the transcript's limit.
 */
function isPlainJson(value: unknown, depth: number, walk: Walk): boolean {
  walk.visits += 1;
  if (walk.visits > MAX_VISITS) return false;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      // JSON writes -0 as 0: not the same value.
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth > MAX_NESTING_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      // An array hole or undefined becomes null: not the same value.
      if (!isPlainJson(value[index], depth + 1, walk)) return false;
    }
    return true;
  }
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    const field = value[key];
    if (field !== undefined && !isPlainJson(field, depth + 1, walk)) return false;
  }
  return true;
}

/** An object JSON writes as its own fields: no class instance (`Date`, `Map`), no `toJSON`, no inherited fields. */
function isPlainObject(value: unknown): value is Plain {
  return hasPlainPrototype(value) && typeof value.toJSON !== 'function';
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0);
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}
