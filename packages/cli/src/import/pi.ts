/**
 * pi coding-agent sessions (`~/.pi/agent/sessions/--<cwd>--/<ts>_<id>.jsonl`, also
 * written by tools that embed pi's session manager) to transcript v1.1.
 * - The first line is the session header. Format v1 has no ids: entries are a list.
 *   Later formats give every entry an `id` and a `parentId`: the conversation is the
 *   path from the last entry back to the root.
 * - `message` entries carry the model's messages with per-message `provider`,
 *   `model`, `usage` and the `cost` pi computed (trusted over the header: the model
 *   can change between any two messages). `bashExecution` messages (the user's `!`
 *   commands) are context the model reads, not prompts: they become injected.
 * - `compaction` entries put a summary in place of the history up to the first kept
 *   entry (`firstKeptEntryIndex` in v1, counting the header; `firstKeptEntryId`
 *   later); the summary becomes an injected message with a compaction marker.
 */
import type { AssistantPart, Message, ToolResultPart, Usage, UserPart } from '@episodic/core';
import { tooDeepField } from '@episodic/core/internal';
import { MAX_NESTING_DEPTH } from '@episodic/core/transcript';
import { z } from 'zod';
import { userMessage } from './anthropic-blocks.js';
import { DropLog, type ImportResult } from './import-result.js';
import { checkShape, type RecordingLine } from './recording-lines.js';
import { ImportError } from './import-result.js';
import { contentText, stampTime, text } from './values.js';

const Header = z.looseObject({ type: z.literal('session'), version: z.number().optional() });
const Entry = z.looseObject({ type: z.string(), id: z.string().optional(), parentId: z.string().nullable().optional() });
const PiUsage = z.looseObject({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number().optional(),
  cacheWrite: z.number().optional(),
  cost: z.looseObject({ total: z.number().optional() }).optional(),
});
const PiMessage = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
});

/** Entries that hold no model input, and why they are left out. */
const skippedEntries: Readonly<Record<string, string>> = {
  model_change: 'a model switch; each assistant message names its own model',
  thinking_level_change: 'a reasoning setting; not part of the conversation',
  custom: 'extension state, not sent to the model',
  label: 'a bookmark in the session, not sent to the model',
  session_info: 'session metadata, not sent to the model',
};

/** The text pi sends in place of the history it compacted. */
function summaryText(summary: string): string {
  return `The conversation history before this point was compacted into the following summary:\n\n<summary>\n${summary}\n</summary>`;
}

/** Imports a pi session. */
export function importPi(records: readonly RecordingLine[], file: string): ImportResult {
  const [first, ...rest] = records;
  if (!first) throw new ImportError(file, undefined, 'the file is empty: a pi session starts with a {"type":"session"} line');
  const header = checkShape(Header, first, file, 'the pi session header');
  for (const record of rest) {
    // Recursive code (the transcript writer, the packer's counts) must never meet deeper input.
    const deep = tooDeepField(record.value, MAX_NESTING_DEPTH);
    if (deep !== undefined) throw new ImportError(file, record.line, `${deep} nests arrays and objects more than ${MAX_NESTING_DEPTH} levels deep`);
  }
  const drops = new DropLog();
  const tree = rest.some((record) => typeof record.value.id === 'string');
  const path = tree ? activePath(rest, drops) : rest;
  const builder = new PiBuilder(file, drops, path, tree);
  for (const [index, record] of path.entries()) builder.add(record, index);
  const models = new Set(builder.messages.flatMap((message) => (message.role === 'assistant' && message.model ? [`${message.model.provider}/${message.model.id}`] : [])));
  return {
    source: 'pi',
    file,
    messages: builder.messages,
    prefixRecorded: false,
    dropped: drops.list(),
    notes: [
      `pi session format v${header.version ?? 1} (${tree ? 'a tree of entries: the path to the last one is read' : 'a list of entries'}); models: ${[...models].join(', ') || 'none recorded'}`,
      'the system prompt and tool definitions are not recorded in pi sessions',
    ],
  };
}

/** The entries from the root to the last entry, by `parentId`. */
function activePath(records: readonly RecordingLine[], drops: DropLog): RecordingLine[] {
  const byId = new Map(records.map((record) => [text(record.value.id), record]));
  const path: RecordingLine[] = [];
  const seen = new Set<RecordingLine>();
  for (let record = records.at(-1); record && !seen.has(record);) {
    seen.add(record);
    path.push(record);
    const parent = record.value.parentId;
    record = typeof parent === 'string' ? byId.get(parent) : undefined;
  }
  for (const record of records) {
    if (!seen.has(record)) drops.drop('entries on another branch', 'not on the path to the last entry', record.line);
  }
  return path.reverse();
}

class PiBuilder {
  readonly messages: Message[] = [];
  /** Transcript length before each entry of the path, to find where a compaction's kept history begins. */
  private readonly lengthBefore: number[] = [];
  private readonly toolNames = new Map<string, string>();

  constructor(
    private readonly file: string,
    private readonly drops: DropLog,
    private readonly path: readonly RecordingLine[],
    private readonly tree: boolean,
  ) {}

  add(record: RecordingLine, index: number): void {
    this.lengthBefore[index] = this.messages.length;
    this.addEntry(record);
    stampTime(this.messages, this.lengthBefore[index], record.value.timestamp);
  }

  private addEntry(record: RecordingLine): void {
    const entry = checkShape(Entry, record, this.file, 'a pi session entry');
    if (entry.type === 'message') return this.addMessage(record);
    if (entry.type === 'compaction') return this.addCompaction(record);
    if (entry.type === 'custom_message') {
      this.messages.push(userMessage([{ type: 'text', text: contentText(record.value.content) }], true));
      return;
    }
    const known = Object.hasOwn(skippedEntries, entry.type) ? skippedEntries[entry.type] : undefined;
    this.drops.drop(`${entry.type} entries`, known ?? 'an entry type this importer does not know', record.line);
  }

  private addCompaction(record: RecordingLine): void {
    const value = record.value;
    const keptFrom = this.keptFrom(value);
    const keptMessages = keptFrom === undefined ? 0 : this.messages.length - keptFrom;
    const tokensBefore = typeof value.tokensBefore === 'number' ? { tokensBefore: value.tokensBefore } : {};
    this.messages.push({
      ...userMessage([{ type: 'text', text: summaryText(text(value.summary)) }], true),
      compaction: { keptMessages, ...tokensBefore },
    });
  }

  /** Transcript index of the first message the compaction kept, if it is known. */
  private keptFrom(value: Record<string, unknown>): number | undefined {
    if (this.tree) {
      const index = this.path.findIndex((record) => record.value.id === value.firstKeptEntryId);
      return index === -1 ? undefined : this.lengthBefore[index];
    }
    // v1 counts entries from the header line, which is not on the path.
    const index = typeof value.firstKeptEntryIndex === 'number' ? value.firstKeptEntryIndex - 1 : -1;
    return index < 0 ? undefined : this.lengthBefore[index];
  }

  private addMessage(record: RecordingLine): void {
    const message = checkShape(PiMessage, { line: record.line, value: record.value.message as Record<string, unknown> }, this.file, 'a pi message');
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    switch (message.role) {
      case 'user':
        this.messages.push(userMessage(userParts(blocks), false));
        return;
      case 'assistant':
        return this.addAssistant(message, blocks, record.line);
      case 'toolResult': {
        const id = text(message.toolCallId);
        // OpenClaw records results of calls it never recorded (a tool name the model made up):
        // a result without its call is a transcript no reader accepts.
        if (!this.toolNames.has(id)) {
          this.drops.dropContent('tool results without their call', 'no earlier assistant message on the path makes that call', record.line);
          return;
        }
        this.messages.push({
          role: 'tool',
          toolCallId: id,
          toolName: text(message.toolName) || this.toolNames.get(id) || 'unknown',
          content: toolContent(blocks),
          ...(message.isError === true ? { isError: true } : {}),
        });
        return;
      }
      case 'bashExecution':
        if (message.excludeFromContext === true) {
          this.drops.drop('bash executions kept out of context', 'the user ran them with !! (not sent to the model)', record.line);
          return;
        }
        this.messages.push(userMessage([{ type: 'text', text: bashText(message) }], true));
        return;
      default:
        this.drops.dropContent(`messages of role ${message.role}`, 'a role this importer does not know', record.line);
    }
  }

  private addAssistant(message: z.infer<typeof PiMessage>, blocks: readonly Record<string, unknown>[], line: number): void {
    const model = { provider: text(message.provider) || 'unknown', id: text(message.model) || 'unknown' };
    const usage = piUsage(message.usage, this.file, line);
    const parts = assistantParts(blocks, model, this.drops, line);
    if (parts.length === 0 && (usage?.inputTokens ?? 0) === 0) {
      this.drops.drop('empty assistant messages', `stopped with "${text(message.stopReason)}" before any output or usage`, line);
      return;
    }
    for (const part of parts) if (part.type === 'tool-call') this.toolNames.set(part.id, part.name);
    this.messages.push({ role: 'assistant', content: parts, model, ...(usage ? { usage } : {}) });
  }
}

function assistantParts(
  blocks: readonly Record<string, unknown>[],
  model: { provider: string; id: string },
  drops: DropLog,
  line: number,
): AssistantPart[] {
  const tag = { provider: model.provider, model: model.id };
  return blocks.flatMap((block): AssistantPart[] => {
    if (block.type === 'text') return [{ type: 'text', text: text(block.text) }];
    if (block.type === 'thinking') {
      const signature = text(block.thinkingSignature);
      return [{ type: 'reasoning', text: text(block.thinking), ...(signature ? { signature } : {}), providerData: tag }];
    }
    if (block.type === 'toolCall') return [{ type: 'tool-call', id: text(block.id), name: text(block.name), args: block.arguments ?? {} }];
    drops.dropContent(`assistant "${text(block.type)}" blocks`, 'a block type this importer does not know', line);
    return [];
  });
}

/** pi's `input` excludes cache reads and writes; transcript input counts them. */
function piUsage(value: unknown, file: string, line: number): Usage | undefined {
  if (value === undefined) return undefined;
  const usage = checkShape(PiUsage, { line, value: value as Record<string, unknown> }, file, 'a pi assistant usage');
  const read = usage.cacheRead ?? 0;
  const write = usage.cacheWrite ?? 0;
  const cost = usage.cost?.total;
  return {
    inputTokens: usage.input + read + write,
    cachedInputTokens: read,
    cacheWriteTokens: write,
    outputTokens: usage.output,
    ...(cost === undefined ? {} : { costUsd: cost }),
  };
}

function userParts(blocks: readonly Record<string, unknown>[]): UserPart[] {
  return blocks.flatMap((block): UserPart[] => {
    if (block.type === 'image') return [{ type: 'image', data: text(block.data), mediaType: text(block.mimeType) }];
    return [{ type: 'text', text: text(block.text) }];
  });
}

/** A tool result's content: a string when it is all text, else parts (images are v1.1). */
function toolContent(blocks: readonly Record<string, unknown>[]): string | ToolResultPart[] {
  const parts = userParts(blocks) as ToolResultPart[];
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => (part as { text: string }).text).join('\n');
  return parts;
}

/** A `!` command as the model reads it. */
function bashText(message: Record<string, unknown>): string {
  const status = message.cancelled === true ? '\n(command cancelled)' : typeof message.exitCode === 'number' && message.exitCode !== 0 ? `\nCommand exited with code ${message.exitCode}` : '';
  return `Ran \`${text(message.command)}\`\n\`\`\`\n${text(message.output)}\n\`\`\`${status}`;
}
