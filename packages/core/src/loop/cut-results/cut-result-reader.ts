/**
 * The reader of cut tool results (`read_cut_result`): the packer shortens a tool
 * result over its cap to head + marker + tail, and with `PackOptions.resultReader`
 * the marker names this tool, the call and the offset of the cut characters. A call
 * returns the original text of that result from the offset, as much as fits in the
 * tool-result cap (so its own output is never cut), with a header saying which
 * characters it holds and, when more is left, the arguments that read on.
 *
 * It reads only the transcript of the session it was built for (a closure over its
 * messages): read-only and idempotent, so it needs no approval and a durable replay
 * may run it again.
 */
import type { z } from 'zod/v4';
import { ToolInputError } from '../../errors/tool-input-error.js';
import type { Message, ToolMessage, ToolSpec } from '../../message/message.js';
import { partsAsText } from '../../packing/packed-forms.js';
import type { JsonSchema } from '../../support/json-schema.js';
import { describeIssues } from '../../support/schema-issue.js';
import { validateWith } from '../../support/standard-schema.js';
import { lazily, loadZod } from '../../support/zod-loader.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import type { AgentTool, ToolOutput } from '../tool.js';

/** The reader's name when the agent reads cut results (`cutResults: 'readable'`). */
export const CUT_RESULT_READER = 'read_cut_result';

/** Tool results listed in the error for an unknown id. */
const LISTED_RESULTS = 8;

// No descriptions on the fields: the marker gives the arguments, and the spec is sent with every call.
/** The reader's input schema, built on the first call (see support/zod-loader.ts). */
export const readerInput = lazily((z) => z.object({ toolCallId: z.string().min(1), offset: z.number().int().min(0).optional() }));
/**
 * `readerInput` as `toolInputSchema` converts it, written out: a run that offers the
 * reader builds no zod schema (cut-result-reader.test.ts holds the two equal).
 */
export const READER_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { toolCallId: { type: 'string', minLength: 1 }, offset: { type: 'integer', minimum: 0 } },
  required: ['toolCallId'],
};
// Built once per name: a reader is built per run, and a spec object kept has its tokens counted once.
const specs = new Map<string, ToolSpec>();

function specFor(name: string): ToolSpec {
  let spec = specs.get(name);
  if (!spec) {
    spec = {
      name,
      description: 'Reads what was cut from the middle of a tool result, from the offset (in characters) its cut marker gives.',
      inputSchema: READER_INPUT_SCHEMA,
    };
    specs.set(name, spec);
  }
  return spec;
}

/** What {@link cutResultReader} reads and how much it may return. */
export interface CutResultReaderOptions {
  /** The tool's name. Default {@link CUT_RESULT_READER}. */
  name?: string;
  /** The session's transcript as it is at the time of a call. */
  messages: () => readonly Message[];
  /** Largest output, in raw tokens of `counter`: the tool-result cap in force, so no read is cut again. */
  maxTokens: number;
  counter: TokenCounter;
}

/** Builds the reader tool for one session; see the module comment. */
export function cutResultReader(options: CutResultReaderOptions): AgentTool {
  const name = options.name ?? CUT_RESULT_READER;
  return {
    spec: specFor(name),
    idempotent: true,
    needsApproval: false,
    async execute(args) {
      await loadZod();
      const parsed = await validateWith(readerInput(), args ?? {});
      if (!parsed.success) throw new ToolInputError(name, describeIssues(parsed.issues, args));
      const { toolCallId, offset = 0 } = parsed.data as z.infer<ReturnType<typeof readerInput>>;
      const messages = options.messages();
      const result = findResult(messages, toolCallId);
      if (!result) return { content: unknownCall(toolCallId, messages), isError: true };
      return readSlice(result, offset, { ...options, name });
    },
  };
}

/** The tool result of `toolCallId`, the latest when (against the rules) there are several. */
function findResult(messages: readonly Message[], toolCallId: string): ToolMessage | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    if (message.role === 'tool' && message.toolCallId === toolCallId) return message;
  }
  return undefined;
}

/** The original text of a result, as the packer's marker counts its offsets. */
function resultText(result: ToolMessage): string {
  return typeof result.content === 'string' ? result.content : partsAsText(result.content);
}

function unknownCall(toolCallId: string, messages: readonly Message[]): string {
  const known: string[] = [];
  for (let index = messages.length - 1; index >= 0 && known.length < LISTED_RESULTS; index -= 1) {
    const message = messages[index] as Message;
    if (message.role === 'tool') {
      known.push(`${message.toolCallId} (${message.toolName}, ${resultText(message).length} characters)`);
    }
  }
  const listed = known.length > 0 ? `Latest tool results: ${known.join(', ')}.` : 'This session has no tool results yet.';
  return `No tool result with toolCallId "${toolCallId}" in this session. ${listed} Use the toolCallId the cut marker gives.`;
}

/** The slice of `result` from `offset` that fits, with its header and, when more is left, how to read on. */
function readSlice(
  result: ToolMessage,
  offset: number,
  options: Required<Pick<CutResultReaderOptions, 'name'>> & CutResultReaderOptions,
): ToolOutput {
  const text = resultText(result);
  const { toolCallId, toolName } = result;
  if (offset > text.length || (offset === text.length && text.length > 0)) {
    return {
      content:
        `offset ${offset} is past the end of the result of ${toolCallId} (${toolName}), which has ${text.length} characters: ` +
        `read from an offset of 0 to ${Math.max(text.length - 1, 0)}.`,
      isError: true,
    };
  }
  const count = (value: string) => options.counter.countText(value);
  const header = (end: number) => `[${toolCallId} (${toolName}), characters ${offset} to ${end} of ${text.length}]\n`;
  const footer = (end: number) =>
    end >= text.length
      ? ''
      : `\n[${text.length - end} characters left; to read on call ${options.name} with ${JSON.stringify({ toolCallId, offset: end })}]`;
  // Room for the header and footer at their longest (every number as long as the text's length).
  const frame = count(header(text.length)) + count(footer(offset)) + count(String(text.length)) + 4;
  let room = options.maxTokens - frame;
  for (;;) {
    const end = sliceEnd(text, offset, Math.max(room, 1), count);
    const content = header(end) + text.slice(offset, end) + footer(end);
    if (count(content) <= options.maxTokens || end <= offset + 1) return { content };
    room = Math.floor(room * 0.85);
  }
}

/**
 * The end of the longest slice from `start` with at most `room` tokens (at least one
 * character), ending at a line break when one is near the end, so the next read
 * starts on a line.
 */
function sliceEnd(text: string, start: number, room: number, count: (text: string) => number): number {
  // Grow the span until it holds more than `room` tokens or reaches the end, then search between.
  let low = start + 1;
  let high = Math.min(text.length, start + room * 4);
  while (high < text.length && count(text.slice(start, high)) <= room) {
    low = high;
    high = Math.min(text.length, start + (high - start) * 2);
  }
  if (count(text.slice(start, high)) <= room) return high;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (count(text.slice(start, middle)) <= room) low = middle;
    else high = middle;
  }
  if (low >= text.length) return low;
  const lineEnd = text.lastIndexOf('\n', low - 1);
  if (lineEnd >= start && low - (lineEnd + 1) < (low - start) * 0.2) return lineEnd + 1;
  // Never between the two halves of a surrogate pair.
  return isHighSurrogate(text.charCodeAt(low - 1)) && low - 1 > start ? low - 1 : low;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
