/**
 * Claude Code `attachment` lines (CLI 2.1.x). Claude Code renders many attachments
 * into the request as user-role text (`<system-reminder>` blocks) and writes them
 * into the session file on the main parent chain: hook output the model reads,
 * prompts a person typed while the agent worked (`queued_command`), files it
 * re-attached after a compaction, tool, skill and agent listings. Those become
 * messages where they stand; the others (terminal notices, UI state) are reported
 * with a reason. Nothing the model read is left out silently.
 */
import type { PrefixShown } from './import-result.js';
import { text } from './values.js';

/** What an attachment line is: a message the model read, or a line with no text for it. */
export type AttachmentReading =
  | { kind: 'message'; text: string; typed: boolean }
  | { kind: 'link'; what: string; why: string };

type Reader = (attachment: Record<string, unknown>) => AttachmentReading;

const join = (value: unknown): string =>
  Array.isArray(value) ? value.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry))).join('\n') : text(value);
const injected = (body: string): AttachmentReading => ({ kind: 'message', text: body, typed: false });
const link = (type: string, why: string): AttachmentReading => ({ kind: 'link', what: `attachment lines (${type})`, why });

/** Hook events whose output Claude Code adds to the context (the others' output is shown in the terminal). */
const contextHooks = new Set(['SessionStart', 'UserPromptSubmit']);

const readers: Readonly<Record<string, Reader>> = {
  queued_command: (attachment) => {
    // A prompt typed while the agent worked: a turn of the person's (origin human, or a
    // plain prompt before origins were written); task notices and the like are injected.
    const origin = (attachment.origin ?? {}) as Record<string, unknown>;
    const typed = origin.kind === 'human' || (origin.kind === undefined && attachment.commandMode === 'prompt');
    return { kind: 'message', text: join(attachment.prompt), typed };
  },
  hook_additional_context: (attachment) => injected(join(attachment.content)),
  hook_success: (attachment) =>
    contextHooks.has(text(attachment.hookEvent)) && join(attachment.content).trim() !== ''
      ? injected(join(attachment.content))
      : link('hook_success', 'a hook that ran; its output was shown in the terminal, not sent to the model'),
  hook_system_message: () => link('hook_system_message', "a hook's message to the person at the terminal, not sent to the model"),
  hook_non_blocking_error: () => link('hook_non_blocking_error', "a hook's error shown in the terminal, not sent to the model"),
  file: (attachment) => {
    const content = (attachment.content ?? {}) as Record<string, unknown>;
    const file = (content.file ?? {}) as Record<string, unknown>;
    return injected(`${text(attachment.filename)}\n${text(file.content) || join(content.content)}`);
  },
  nested_memory: (attachment) => {
    const content = (attachment.content ?? {}) as Record<string, unknown>;
    return injected(`${text(attachment.path)}\n${text(content.content)}`);
  },
  edited_text_file: (attachment) => injected(`${text(attachment.filename)}\n${text(attachment.snippet)}`),
  skill_listing: (attachment) => injected(join(attachment.content)),
  deferred_tools_delta: (attachment) => injected(join(attachment.addedNames)),
  agent_listing_delta: (attachment) => injected(join(attachment.addedTypes)),
  mcp_instructions_delta: (attachment) => injected(join(attachment.addedBlocks)),
  task_reminder: (attachment) =>
    Array.isArray(attachment.content) && attachment.content.length > 0
      ? injected(join(attachment.content))
      : link('task_reminder', 'an empty task list'),
  compact_file_reference: () => link('compact_file_reference', 'names a file read before a compaction; its content is not in the file'),
  command_permissions: () => link('command_permissions', 'tool permissions of a slash command, not text sent to the model'),
  auto_mode: () => link('auto_mode', 'a terminal mode switch, not text sent to the model'),
};

/** Reads an attachment line's `attachment` object. */
export function readAttachment(attachment: unknown): AttachmentReading {
  const value = (attachment ?? {}) as Record<string, unknown>;
  const type = text(value.type) || '(untyped)';
  const reader = readers[type];
  if (reader) {
    const reading = reader(value);
    return reading.kind === 'message' && reading.text.trim() === '' ? link(type, 'no text') : reading;
  }
  return link(type, 'an attachment type this importer does not know; it holds no text the session file shows as sent');
}

/**
 * What a session's lines show of the fixed prefix: the MCP servers it names (in
 * tool calls, MCP instructions and deferred tool listings) and whether plugins are
 * installed (plugin skills and agents are listed by `plugin:name`).
 */
export function prefixShown(values: readonly Record<string, unknown>[]): PrefixShown {
  const servers = new Set<string>();
  let plugins = false;
  const server = (name: string) => /^mcp__(.+?)__/.exec(name)?.[1];
  for (const value of values) {
    const attachment = (value.attachment ?? {}) as Record<string, unknown>;
    const names = [
      ...(Array.isArray(attachment.addedNames) ? attachment.addedNames : []),
      ...toolNames(value),
    ].filter((name): name is string => typeof name === 'string');
    for (const name of names) {
      const found = attachment.type === 'mcp_instructions_delta' ? name : server(name);
      if (found) servers.add(found);
    }
    if (attachment.type === 'agent_listing_delta' && Array.isArray(attachment.addedTypes)) {
      plugins ||= attachment.addedTypes.some((type) => typeof type === 'string' && type.includes(':'));
    }
    if (attachment.type === 'skill_listing') plugins ||= /^- [\w.-]+:[\w.:-]+:/m.test(text(attachment.content));
  }
  return { mcpServers: servers.size, plugins };
}

/** The tool names an assistant line calls. */
function toolNames(value: Record<string, unknown>): unknown[] {
  const content = ((value.message ?? {}) as Record<string, unknown>).content;
  if (value.type !== 'assistant' || !Array.isArray(content)) return [];
  return content.map((block) => ((block ?? {}) as Record<string, unknown>).name);
}
