/**
 * Claude Code sessions (`~/.claude/projects/<cwd>/<session>.jsonl`) to transcript
 * v1.1. What the format does and how it is read:
 * - Lines form a tree by `uuid` / `parentUuid`, bookkeeping lines with a uuid
 *   (hook progress, hook notices, status lines) included as links only; the
 *   conversation is the path from the last conversation line back to the root (see
 *   `claude-code-tree.ts`). Lines off that path are sub-agent turns (`isSidechain`)
 *   or branches the session left; a file of sub-agent lines only (`agent-*.jsonl`)
 *   is read as that sub-agent's conversation.
 * - `attachment` lines (2.1.x) the model read (hook context, prompts queued while
 *   the agent worked, re-attached files, tool and skill listings) are user messages
 *   where they stand (see `claude-code-attachments.ts`).
 * - One API response is written as one line per content block, every line with the
 *   same `message.id` and the full usage: the lines are merged into one assistant
 *   message and the usage is taken once (from the last line, which has the final
 *   output count).
 * - User lines hold typed prompts, tool results, and context the harness added
 *   (`isMeta`, local-command output, system reminders, compaction summaries): the
 *   latter become injected messages, which do not start an episode.
 */
import type { AssistantMessage, Message, ModelRef, Usage } from '@episodic/core';
import { anthropicUsage, assistantParts, type Block, userBlocks, userMessage } from './anthropic-blocks.js';
import { DropLog, type ImportResult } from './import-result.js';
import type { RecordingLine } from './recording-lines.js';
import { checkShape } from './recording-lines.js';
import { prefixShown, readAttachment } from './claude-code-attachments.js';
import { conversationPath, dropBookkeeping, type TreeLine } from './claude-code-tree.js';
import { stampTime } from './values.js';
import { z } from 'zod';

/** A conversation line: the fields this importer reads. */
const Entry = z.looseObject({
  type: z.enum(['user', 'assistant', 'system']),
  uuid: z.string().min(1),
  parentUuid: z.string().nullable().optional(),
  logicalParentUuid: z.string().nullable().optional(),
  isSidechain: z.boolean().optional(),
  isMeta: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  subtype: z.string().optional(),
  version: z.string().optional(),
  timestamp: z.string().optional(),
  compactMetadata: z.looseObject({ preTokens: z.number().optional() }).optional(),
  message: z
    .looseObject({
      id: z.string().optional(),
      model: z.string().optional(),
      content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
      usage: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});
type Entry = z.infer<typeof Entry> & { line: number };

/**
 * Text that only a harness writes: a string made of nothing but these tags (or one
 * of the markers) is injected context, not something a person typed.
 */
const harnessTags = [
  'system-reminder',
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'task-notification',
  'user-prompt-submit-hook',
  'bash-input',
  'bash-stdout',
  'bash-stderr',
];
const harnessOnly = new RegExp(`^\\s*(?:<(${harnessTags.join('|')})>[\\s\\S]*?</\\1>\\s*)+$`);
const interruption = /^\[Request interrupted by user[^\]]*\]$/;
const commandEnvelope = /<command-name>[\s\S]*<\/command-name>/;

/** Imports a Claude Code session. */
export function importClaudeCode(records: readonly RecordingLine[], file: string): ImportResult {
  const drops = new DropLog();
  const tree: TreeLine<Entry>[] = [];
  for (const record of records) {
    const type = typeof record.value.type === 'string' ? record.value.type : '(none)';
    if (type === 'user' || type === 'assistant' || type === 'system') {
      tree.push(conversationLine(record, file, type));
    } else if (type === 'attachment' && hasUuid(record.value)) {
      tree.push(attachmentLine(record));
    } else if (hasUuid(record.value)) {
      // Bookkeeping lines with a uuid (hook progress) are links of the chain.
      tree.push({ ...treeFields(record.value), type, line: record.line });
    } else {
      dropBookkeeping(type, record.line, drops);
    }
  }
  const chain = conversationPath(tree, drops);
  const builder = new ClaudeCodeBuilder(drops);
  chain.forEach((entry, index) => builder.add(entry, chain[index + 1]));
  const entries = tree.filter((line) => line.entry !== undefined);
  const versions = [...new Set(entries.map((line) => line.entry?.version).filter((version) => version !== undefined))];
  return {
    source: 'claude-code',
    file,
    messages: builder.messages,
    prefixRecorded: false,
    ...(versions[0] === undefined ? {} : { agentVersion: versions[0] }),
    prefixShown: prefixShown(records.map((record) => record.value)),
    provider: 'anthropic',
    dropped: drops.list(),
    notes: [
      `Claude Code ${versions.join(', ') || '(version not recorded)'}; ${chain.length} of ${entries.length} conversation lines on the path read`,
      'the system prompt and tool definitions are not recorded in Claude Code sessions',
    ],
  };
}

const hasUuid = (value: Record<string, unknown>) => typeof value.uuid === 'string' && value.uuid !== '';

/**
 * A user, assistant or system line. A system line is a link of the chain only
 * (status notes, hook summaries), except a compaction boundary.
 */
function conversationLine(record: RecordingLine, file: string, type: string): TreeLine<Entry> {
  const entry = { ...checkShape(Entry, record, file, `a Claude Code ${type} line`), line: record.line };
  const fields = { ...treeFields(record.value), type, line: record.line };
  if (type === 'system' && entry.subtype !== 'compact_boundary') {
    const what = `system lines (${entry.subtype ?? 'no subtype'})`;
    return { ...fields, dropped: { what, why: 'status notes of the terminal, not sent to the model' } };
  }
  const content = entry.message === undefined ? undefined : JSON.stringify(entry.message.content);
  const usage = entry.type === 'assistant' ? contextOf(entry.message?.usage) : undefined;
  return {
    ...fields,
    entry,
    ...(content === undefined ? {} : { content }),
    ...(type === 'system' ? { boundary: true } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** An attachment line: a user message when the model read it, else a link of the chain. */
function attachmentLine(record: RecordingLine): TreeLine<Entry> {
  const fields = { ...treeFields(record.value), type: 'attachment', line: record.line };
  const reading = readAttachment(record.value.attachment);
  if (reading.kind === 'link') return { ...fields, dropped: { what: reading.what, why: reading.why } };
  const timestamp = typeof record.value.timestamp === 'string' ? { timestamp: record.value.timestamp } : {};
  const entry: Entry = {
    type: 'user',
    uuid: fields.uuid,
    line: record.line,
    ...(reading.typed ? {} : { isMeta: true }),
    ...timestamp,
    message: { content: reading.text },
  };
  return { ...fields, entry, content: JSON.stringify(reading.text) };
}

/** What an assistant line's call was sent, and that plus its output (tokens). */
function contextOf(usage: Record<string, unknown> | undefined): { input: number; after: number } | undefined {
  const read = anthropicUsage(usage);
  return read ? { input: read.inputTokens, after: read.inputTokens + read.outputTokens } : undefined;
}

/** The tree fields of a line, read loosely (bookkeeping lines are not checked further). */
function treeFields(value: Record<string, unknown>): Omit<TreeLine<Entry>, 'type' | 'line'> {
  const id = (field: unknown) => (typeof field === 'string' ? field : null);
  return {
    uuid: String(value.uuid),
    parentUuid: id(value.parentUuid),
    logicalParentUuid: id(value.logicalParentUuid),
    ...(value.isSidechain === true ? { isSidechain: true } : {}),
  };
}

/** Builds transcript messages from the conversation path, line by line. */
class ClaudeCodeBuilder {
  readonly messages: Message[] = [];
  private readonly responses = new Map<string, { message: AssistantMessage; output: number }>();
  private readonly toolNames = new Map<string, string>();
  private readonly answered = new Set<string>();
  private pendingCompaction: { tokensBefore?: number } | undefined;

  constructor(private readonly drops: DropLog) {}

  add(entry: Entry, next: Entry | undefined): void {
    const before = this.messages.length;
    this.addEntry(entry, next);
    stampTime(this.messages, before, entry.timestamp);
  }

  private addEntry(entry: Entry, next: Entry | undefined): void {
    if (entry.type === 'system') return this.addSystem(entry);
    const message = entry.message;
    if (!message) {
      this.drops.drop(`${entry.type} lines without a message`, 'nothing to import', entry.line);
      return;
    }
    if (entry.type === 'assistant') this.addAssistant(entry, message);
    else this.addUser(entry, message.content as string | Block[], next);
  }

  private addSystem(entry: Entry): void {
    if (entry.subtype === 'compact_boundary') {
      this.pendingCompaction = { tokensBefore: entry.compactMetadata?.preTokens };
      return;
    }
    this.drops.drop(`system lines (${entry.subtype ?? 'no subtype'})`, 'status notes of the terminal, not sent to the model', entry.line);
  }

  private addAssistant(entry: Entry, message: NonNullable<Entry['message']>): void {
    const modelId = message.model ?? 'unknown';
    if (modelId === '<synthetic>') {
      this.drops.drop('assistant lines of model <synthetic>', 'written by Claude Code itself (an API error or an interruption), not a model call', entry.line);
      return;
    }
    const model: ModelRef = { provider: 'anthropic', id: modelId };
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const usage = anthropicUsage(message.usage);
    const known = message.id === undefined ? undefined : this.responses.get(message.id);
    const parts = assistantParts(blocks, model).filter(
      (part) => part.type !== 'tool-call' || !this.toolNames.has(part.id),
    );
    for (const part of parts) if (part.type === 'tool-call') this.toolNames.set(part.id, part.name);
    if (known) {
      // Another block of a response already begun: one call, so one message and one usage.
      known.message.content.push(...parts);
      if (usage && usage.outputTokens >= known.output) this.setUsage(known, usage);
      return;
    }
    const created: AssistantMessage = { role: 'assistant', content: parts, model, ...(usage ? { usage } : {}) };
    this.messages.push(created);
    if (message.id !== undefined) this.responses.set(message.id, { message: created, output: usage?.outputTokens ?? 0 });
  }

  private setUsage(known: { message: AssistantMessage; output: number }, usage: Usage): void {
    known.message.usage = usage;
    known.output = usage.outputTokens;
  }

  private addUser(entry: Entry, content: string | Block[], next: Entry | undefined): void {
    const { results, parts } = userBlocks(content, this.toolNames, this.drops, entry.line);
    for (const result of results) {
      if (this.answered.has(result.toolCallId)) {
        this.drops.drop('tool results answered already', 'a second result for a call that has one; the first is kept', entry.line);
        continue;
      }
      if (!this.toolNames.has(result.toolCallId)) {
        this.drops.dropContent('tool results without their call', 'the call is not on the conversation path', entry.line);
        continue;
      }
      this.answered.add(result.toolCallId);
      this.messages.push(result);
    }
    if (parts.length === 0) return;
    const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    if (entry.isCompactSummary === true) {
      const compaction = { keptMessages: 0, ...this.takeCompaction() };
      this.messages.push({ ...userMessage(parts, true), compaction });
      return;
    }
    this.messages.push(userMessage(parts, isInjected(entry, text, results.length > 0, next)));
  }

  private takeCompaction(): { tokensBefore?: number } {
    const found = this.pendingCompaction ?? {};
    this.pendingCompaction = undefined;
    return found.tokensBefore === undefined ? {} : { tokensBefore: found.tokensBefore };
  }
}

/** Context the harness added rather than a prompt a person typed. */
function isInjected(entry: Entry, text: string, withResults: boolean, next: Entry | undefined): boolean {
  if (entry.isMeta === true || withResults) return true;
  const trimmed = text.trim();
  if (harnessOnly.test(trimmed) || interruption.test(trimmed)) return true;
  // A local command (/context, /exit) runs in the terminal; its output follows it.
  if (commandEnvelope.test(trimmed)) return nextIsLocalOutput(next);
  return false;
}

function nextIsLocalOutput(next: Entry | undefined): boolean {
  const content = next?.type === 'user' ? next.message?.content : undefined;
  return typeof content === 'string' && content.trimStart().startsWith('<local-command-std');
}
