/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) to transcript
 * v1.1. Every line is `{timestamp, type, payload}`:
 * - `response_item` lines are what the model saw and said (Responses API items):
 *   messages, reasoning (encrypted, with a summary), function and custom tool calls
 *   and their outputs. The assistant items of one model request become one
 *   assistant message.
 * - `event_msg` lines are the terminal's echoes of those items (ignored, they would
 *   double everything) and `token_count` events, the only usage: an event with new
 *   cumulative totals comes before the items of its request (before 0.140) or after
 *   them and their tool outputs (0.140+): it belongs to the request answered since
 *   the last count when that one has no usage yet, else to the next. Its
 *   `last_token_usage` (or the difference of the totals) is that request's usage.
 * - `turn_context` names the model of the requests that follow; rollouts before
 *   0.40 have none, so their model is unknown.
 *
 * @see https://github.com/openai/codex/blob/main/codex-rs/protocol/src/protocol.rs
 */
import type { AssistantMessage, AssistantPart, Message, ModelRef, ToolResultPart, Usage, UserPart } from '@episodic/core';
import { z } from 'zod';
import { userMessage } from './anthropic-blocks.js';
import { DropLog, type ImportResult } from './import-result.js';
import { checkShape, type RecordingLine } from './recording-lines.js';
import { contentText, imageFromUrl, parseArguments, stampTime, text } from './values.js';

const Line = z.looseObject({ type: z.string(), payload: z.unknown() });
const TokenUsage = z.looseObject({
  input_tokens: z.number(),
  cached_input_tokens: z.number().optional(),
  output_tokens: z.number(),
  reasoning_output_tokens: z.number().optional(),
  total_tokens: z.number().optional(),
});
type TokenUsage = z.infer<typeof TokenUsage>;
const TokenCount = z.looseObject({
  info: z
    .looseObject({ total_token_usage: TokenUsage, last_token_usage: TokenUsage.optional() })
    .nullable()
    .optional(),
});

/** User messages Codex writes itself, by how they begin: context, not something a person typed. */
const injectedStarts = [
  '<environment_context>',
  '<user_instructions>',
  '# AGENTS.md instructions',
  '<user_shell_command>',
  '<turn_aborted>',
];

/** Response items that are not model input, and why they are left out. */
const skippedItems: Readonly<Record<string, string>> = {
  ghost_snapshot: 'an undo snapshot of the working tree, never sent to the model',
};

/** Imports a Codex rollout. */
export function importCodex(records: readonly RecordingLine[], file: string): ImportResult {
  const builder = new CodexBuilder(file);
  for (const record of records) builder.add(record);
  return builder.result();
}

class CodexBuilder {
  private readonly drops = new DropLog();
  private readonly messages: Message[] = [];
  private readonly toolNames = new Map<string, string>();
  private model: ModelRef | undefined;
  private provider = 'openai';
  private version = '(version not recorded)';
  /** The assistant message items are being added to, until a non-assistant item or a new request. */
  private open: AssistantMessage | undefined;
  private pendingUsage: Usage | undefined;
  /** The request answered since the last token count without usage yet (0.140+ counts after the items). */
  private unbilled: AssistantMessage | undefined;
  private lastTotals: TokenUsage | undefined;
  private echoes = 0;

  constructor(private readonly file: string) {}

  add(record: RecordingLine): void {
    const before = this.messages.length;
    this.addLine(record);
    stampTime(this.messages, before, record.value.timestamp);
  }

  private addLine(record: RecordingLine): void {
    const line = checkShape(Line, record, this.file, 'a Codex rollout line ({timestamp, type, payload})');
    const payload = (line.payload ?? {}) as Record<string, unknown>;
    switch (line.type) {
      case 'session_meta':
        this.provider = text(payload.model_provider) || this.provider;
        this.version = text(payload.cli_version) || this.version;
        return;
      case 'turn_context':
        if (text(payload.model)) this.model = { provider: this.provider, id: text(payload.model) };
        return;
      case 'response_item':
        return this.addItem(payload, record.line);
      case 'event_msg':
        return this.addEvent(payload, record);
      case 'compacted':
        return this.addCompaction(payload, record.line);
      default:
        this.drops.drop(`${line.type} lines`, 'a line type that is not part of the conversation', record.line);
    }
  }

  /**
   * A compaction. Before 0.140 its `message` is the summary the model goes on from.
   * From 0.140 the message is empty and `replacement_history` is the new context
   * itself: the user messages and instructions Codex kept, and a `compaction` item
   * whose summary is encrypted for OpenAI alone. The kept text becomes the summary
   * message; the encrypted summary cannot be read or counted, and is reported.
   */
  private addCompaction(payload: Record<string, unknown>, line: number): void {
    this.close();
    this.unbilled = undefined;
    if (this.pendingUsage) {
      // The request that wrote the summary read the whole history: its usage is not the next call's.
      this.drops.drop('usage of compaction requests', 'the request that summarised the history; no transcript message answers it', line);
      this.pendingUsage = undefined;
    }
    const history = Array.isArray(payload.replacement_history) ? (payload.replacement_history as Record<string, unknown>[]) : [];
    const kept: string[] = text(payload.message) ? [text(payload.message)] : [];
    for (const item of history) {
      if (item.type === 'message' || item.role !== undefined) kept.push(contentText(item.content));
      else if (item.type === 'compaction') {
        this.drops.drop('encrypted compaction summaries', 'the summary is encrypted for OpenAI; its tokens count in the reported usage but cannot be read', line);
      } else this.drops.drop(`${text(item.type) || '(untyped)'} items of a replacement history`, 'an item type this importer does not know', line);
    }
    this.messages.push({ ...userMessage([{ type: 'text', text: kept.join('\n\n') }], true), compaction: { keptMessages: 0 } });
  }

  private addEvent(payload: Record<string, unknown>, record: RecordingLine): void {
    if (payload.type !== 'token_count') {
      // user_message, agent_message, agent_reasoning echo response items; turn_aborted is a UI note.
      this.echoes += 1;
      return;
    }
    const info = checkShape(TokenCount, { line: record.line, value: payload }, this.file, 'a token_count event').info;
    if (!info) return;
    const totals = info.total_token_usage;
    if (this.lastTotals && sameTotals(this.lastTotals, totals)) return;
    const last = info.last_token_usage ?? difference(totals, this.lastTotals);
    this.lastTotals = totals;
    this.close();
    const usage = {
      inputTokens: last.input_tokens,
      cachedInputTokens: last.cached_input_tokens ?? 0,
      outputTokens: last.output_tokens,
      reasoningTokens: last.reasoning_output_tokens ?? 0,
    };
    if (this.unbilled) {
      // Codex 0.140+ writes the count after its request's items (and their tool outputs).
      this.unbilled.usage = usage;
      this.unbilled = undefined;
      return;
    }
    if (this.pendingUsage) this.drops.drop('usage of model requests without output', 'the request produced no items (aborted)', record.line);
    this.pendingUsage = usage;
  }

  private addItem(item: Record<string, unknown>, line: number): void {
    const type = text(item.type);
    const part = this.assistantPart(item, type);
    if (part) return this.addAssistantPart(part);
    this.close();
    if (type === 'message') return this.addMessage(item, line);
    if (type === 'tool_search_output') {
      // Tool search (0.140+): the tools it found are part of the context from here on.
      return this.addOutput(item, line, JSON.stringify(item.tools ?? []));
    }
    if (type === 'function_call_output' || type === 'custom_tool_call_output' || type === 'local_shell_call_output') {
      // From 0.140 there is no exec_command_end event: exit code and output are in this item.
      return this.addOutput(item, line, outputText(item.output));
    }
    this.drops.drop(`${type} items`, skippedItems[type] ?? 'an item type this importer does not know', line);
  }

  private addOutput(item: Record<string, unknown>, line: number, content: string | ToolResultPart[]): void {
    const id = text(item.call_id);
    const name = this.toolNames.get(id);
    if (!name) {
      this.drops.dropContent('tool outputs without their call', 'no earlier item makes that call', line);
      return;
    }
    this.toolNames.delete(id);
    this.messages.push({ role: 'tool', toolCallId: id, toolName: name, content });
  }

  /** The part an assistant-side item becomes, or undefined for anything else. */
  private assistantPart(item: Record<string, unknown>, type: string): AssistantPart | undefined {
    const tag = { provider: this.model?.provider ?? this.provider, model: this.model?.id ?? 'unknown' };
    if (type === 'message' && item.role === 'assistant') {
      return { type: 'text', text: contentText(item.content), ...(text(item.id) ? { providerData: { ...tag, id: item.id } } : {}) };
    }
    if (type === 'reasoning') {
      const summary = Array.isArray(item.summary) ? (item.summary as { text?: unknown }[]) : [];
      const providerData = {
        ...tag,
        ...(text(item.id) ? { id: item.id } : {}),
        ...(text(item.encrypted_content) ? { encrypted_content: item.encrypted_content } : {}),
        summary,
      };
      return { type: 'reasoning', text: summary.map((entry) => text(entry.text)).join('\n\n'), providerData };
    }
    if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
      const id = text(item.call_id) || text(item.id);
      const name = text(item.name) || (type === 'local_shell_call' ? 'local_shell' : 'unknown');
      this.toolNames.set(id, name);
      const args = type === 'function_call' ? parseArguments(text(item.arguments)) : (item.input ?? item.action ?? {});
      return { type: 'tool-call', id, name, args, providerData: { ...tag, type } };
    }
    if (type === 'tool_search_call') {
      const id = text(item.call_id) || text(item.id);
      this.toolNames.set(id, 'tool_search');
      const args = typeof item.arguments === 'string' ? parseArguments(item.arguments) : (item.arguments ?? {});
      return { type: 'tool-call', id, name: 'tool_search', args, providerData: { ...tag, type, execution: item.execution } };
    }
    if (type === 'web_search_call') {
      return { type: 'provider-tool', name: 'web_search', kind: 'call', ...(text(item.id) ? { id: text(item.id) } : {}), providerData: { ...tag, item } };
    }
    return undefined;
  }

  private addAssistantPart(part: AssistantPart): void {
    if (!this.open) {
      this.open = { role: 'assistant', content: [], ...(this.model ? { model: this.model } : {}) };
      if (this.pendingUsage) this.open.usage = this.pendingUsage;
      else this.unbilled = this.open;
      this.pendingUsage = undefined;
      this.messages.push(this.open);
    }
    this.open.content.push(part);
  }

  private addMessage(item: Record<string, unknown>, line: number): void {
    const role = text(item.role);
    const body = contentText(item.content);
    if (role === 'developer' || role === 'system') {
      this.messages.push({ role, content: body });
      return;
    }
    if (role !== 'user') {
      this.drops.dropContent(`messages of role ${role || '(none)'}`, 'a role the transcript does not have', line);
      return;
    }
    const parts = userParts(item.content);
    const injected = injectedStarts.some((start) => body.trimStart().startsWith(start));
    this.messages.push(userMessage(parts, injected));
  }

  private close(): void {
    this.open = undefined;
  }

  result(): ImportResult {
    const models = new Set(this.messages.flatMap((message) => (message.role === 'assistant' && message.model ? [message.model.id] : [])));
    const notes = [
      `Codex CLI ${this.version}; ${this.echoes} terminal echo events not imported (they repeat response items)`,
      'the system prompt (base instructions) and tool definitions are not recorded in Codex rollouts',
    ];
    if (models.size === 0) notes.push('no model is recorded (rollouts before Codex 0.40 have no turn_context): pass --model');
    return {
      source: 'codex',
      file: this.file,
      messages: this.messages,
      prefixRecorded: false,
      provider: this.provider,
      dropped: this.drops.list(),
      notes,
    };
  }
}

function sameTotals(a: TokenUsage, b: TokenUsage): boolean {
  return a.input_tokens === b.input_tokens && a.output_tokens === b.output_tokens && a.total_tokens === b.total_tokens;
}

function difference(totals: TokenUsage, before: TokenUsage | undefined): TokenUsage {
  if (!before) return totals;
  return {
    input_tokens: totals.input_tokens - before.input_tokens,
    cached_input_tokens: (totals.cached_input_tokens ?? 0) - (before.cached_input_tokens ?? 0),
    output_tokens: totals.output_tokens - before.output_tokens,
    reasoning_output_tokens: (totals.reasoning_output_tokens ?? 0) - (before.reasoning_output_tokens ?? 0),
  };
}

function userParts(content: unknown): UserPart[] {
  if (!Array.isArray(content)) return [{ type: 'text', text: contentText(content) }];
  return (content as Record<string, unknown>[]).flatMap((entry): UserPart[] => {
    if (entry.type === 'input_image') return [imageFromUrl(text(entry.image_url))];
    return [{ type: 'text', text: text(entry.text) }];
  });
}

/**
 * A tool output: Codex writes strings, some versions `{content}` objects, and 0.140+
 * a list of content items when a tool returns images (a screenshot is an image the
 * model sees, not its base64 text).
 */
function outputText(output: unknown): string | ToolResultPart[] {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return outputParts(output as Record<string, unknown>[]);
  const content = (output as { content?: unknown } | undefined)?.content;
  return typeof content === 'string' ? content : JSON.stringify(output ?? '');
}

function outputParts(items: readonly Record<string, unknown>[]): string | ToolResultPart[] {
  const parts = items.map((item): ToolResultPart => {
    if (item.type === 'input_image') return imageFromUrl(text(item.image_url));
    return { type: 'text', text: typeof item.text === 'string' ? item.text : JSON.stringify(item) };
  });
  return parts.every((part) => part.type === 'text') ? parts.map((part) => (part as { text: string }).text).join('\n') : parts;
}
