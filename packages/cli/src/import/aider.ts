/**
 * Aider chat logs (`.aider.chat.history.md`, written in the repository aider runs
 * in) to transcript v1.1. The log is Markdown appended as the terminal shows it:
 * - `# aider chat started at <time>` opens a chat; the chats before it are not sent
 *   again, so each opening becomes a compaction marker that keeps nothing.
 * - `#### ` lines are what the person typed (consecutive ones are one message);
 *   answers to aider's own questions (`(Y)es/(N)o`) and commands (`/add`, `/run`,
 *   ...) are not sent to the model, except the prompt of `/ask`, `/code`,
 *   `/architect` and `/context`.
 * - `> ` lines are aider's status output; `> Tokens: 1.8k sent, 653 received.` is the
 *   usage of the model call just answered (rounded as aider prints it, to about 2%).
 * - Anything else is the model's answer. Aider wraps a model's reasoning in
 *   `<thinking-content-<hash>>` tags and leaves it out of the history it sends back:
 *   it becomes a reasoning part (counted as output, not as later input).
 * The system prompt, the repository map and the files added to the chat are sent
 * with every call but not logged; the reconciliation measures them as the prefix.
 */
import type { AssistantMessage, AssistantPart, Message, ModelRef, Usage } from '@episodic/core';
import { userMessage } from './anthropic-blocks.js';
import { DropLog, ImportError, type ImportResult } from './import-result.js';
import { stampTime } from './values.js';

/** Commands whose argument is a prompt sent to the model. */
const promptCommands = /^\/(ask|code|architect|context)\s+/;
/** An answer to one of aider's yes/no questions, logged as input. */
const confirmation = /\(Y\)es\/\(N\)o/;

/** Imports an aider chat log. */
export function importAider(textOfFile: string, file: string): ImportResult {
  const reader = new AiderReader(file);
  textOfFile.split('\n').forEach((line, index) => reader.add(line.replace(/\r$/, ''), index + 1));
  return reader.result();
}

class AiderReader {
  private readonly drops = new DropLog();
  private readonly messages: Message[] = [];
  private readonly versions = new Set<string>();
  private model: ModelRef | undefined;
  private prompt: { lines: string[]; line: number } | undefined;
  private answer: string[] = [];
  private open: AssistantMessage | undefined;
  private chats = 0;
  private time: string | undefined;

  constructor(private readonly file: string) {}

  add(line: string, number: number): void {
    const started = /^# aider chat started at (.+)$/.exec(line);
    if (started) return this.startChat(started[1]!.trim());
    if (line.startsWith('#### ') || line === '####') {
      this.closeAnswer();
      this.prompt ??= { lines: [], line: number };
      this.prompt.lines.push(line.slice(5).replace(/ {2}$/, ''));
      return;
    }
    this.closePrompt();
    if (line.startsWith('> ') || line === '>') return this.addStatus(line.slice(2).replace(/ {2}$/, ''), number);
    if (this.chats === 0) {
      if (line.trim() !== '') throw new ImportError(this.file, number, 'expected "# aider chat started at ..." before anything else');
      return;
    }
    if (this.answer.length > 0 || line.trim() !== '') this.answer.push(line);
  }

  private startChat(time: string): void {
    this.closePrompt();
    this.closeAnswer();
    this.time = time.replace(' ', 'T');
    if (this.chats > 0) {
      const marker = userMessage([{ type: 'text', text: `(aider chat started at ${time})` }], true);
      this.messages.push({ ...marker, compaction: { keptMessages: 0 } });
      stampTime(this.messages, this.messages.length - 1, this.time);
    }
    this.chats += 1;
  }

  private addStatus(status: string, number: number): void {
    const version = /^Aider v(\S+)/.exec(status);
    if (version) this.versions.add(version[1]!);
    const model = /^(?:Main model|Model): (\S+)/.exec(status);
    if (model) this.model = modelRef(model[1]!);
    const tokens = /^Tokens: (.+?)\.(?: Cost:|$)/.exec(status);
    if (tokens) return this.addUsage(aiderUsage(tokens[1]!, this.file, number));
    this.drops.drop('aider status lines (> ...)', 'what the terminal showed (commands, files added, edits applied); not sent to the model', number);
  }

  /** The call just answered: its text so far becomes the assistant message that carries the usage. */
  private addUsage(usage: Usage): void {
    this.closeAnswer();
    const last = this.messages.at(-1);
    const target = last?.role === 'assistant' && last.usage === undefined ? last : this.newAssistant('');
    target.usage = usage;
    this.open = undefined;
  }

  private closePrompt(): void {
    if (!this.prompt) return;
    const { lines, line } = this.prompt;
    this.prompt = undefined;
    const body = lines.join('\n').trim();
    if (confirmation.test(body)) return this.drops.drop('answers to aider questions', 'a yes/no answer to aider itself, not sent to the model', line);
    if (body.startsWith('/') && !promptCommands.test(body)) {
      return this.drops.drop('aider commands', 'a command aider runs itself (its output shows as > lines)', line);
    }
    this.open = undefined;
    this.messages.push(userMessage([{ type: 'text', text: body.replace(promptCommands, '') }], false));
    stampTime(this.messages, this.messages.length - 1, this.time);
  }

  private closeAnswer(): void {
    const body = this.answer.join('\n').trim();
    this.answer = [];
    if (body === '') return;
    this.open ??= this.newAssistant('');
    this.open.content.push(...answerParts(body, this.model));
  }

  private newAssistant(body: string): AssistantMessage {
    const message: AssistantMessage = { role: 'assistant', content: answerParts(body, this.model) };
    if (this.model) message.model = this.model;
    this.messages.push(message);
    stampTime(this.messages, this.messages.length - 1, this.time);
    return message;
  }

  result(): ImportResult {
    this.closePrompt();
    this.closeAnswer();
    if (this.chats === 0) throw new ImportError(this.file, undefined, 'no "# aider chat started at ..." line: not an aider chat log');
    const versions = [...this.versions];
    return {
      source: 'aider',
      file: this.file,
      messages: this.messages,
      prefixRecorded: false,
      // Aider removes the reasoning tags from the history it sends back.
      pastReasoning: 'stripped',
      ...(versions.length > 0 ? { agentVersion: versions.at(-1)! } : {}),
      dropped: this.drops.list(),
      notes: [
        `aider ${versions.join(', ') || '(version not logged)'}; ${this.chats} chats in the log`,
        'the system prompt, the repository map and the files added to the chat are sent with every call but not logged',
      ],
    };
  }
}

/** An answer's text with its `<thinking-content-…>` blocks as reasoning parts; an unclosed tag stays text. */
function answerParts(body: string, model: ModelRef | undefined): AssistantPart[] {
  const parts: AssistantPart[] = [];
  const tag = { provider: model?.provider ?? 'unknown', model: model?.id ?? 'unknown' };
  const addText = (piece: string) => {
    if (piece.trim() !== '') parts.push({ type: 'text', text: piece.trim() });
  };
  let from = 0;
  for (const block of thinkingBlocks(body)) {
    addText(body.slice(from, block.start));
    parts.push({ type: 'reasoning', text: body.slice(block.textStart, block.textEnd).trim(), providerData: tag });
    from = block.end;
  }
  addText(body.slice(from));
  return parts;
}

/** Where a `<thinking-content-…>` block and its text lie in an answer. */
interface ThinkingBlock {
  start: number;
  textStart: number;
  textEnd: number;
  end: number;
}

/**
 * Each `<name>…</name>` block of the answer, in order, in one pass over its tags: a
 * pattern searching for each opening tag's close scanned to the end for every
 * unclosed one, quadratic on a log full of them.
 */
function thinkingBlocks(body: string): ThinkingBlock[] {
  const tags = [...body.matchAll(/<(\/?)(thinking-content-[0-9a-f]+)>/g)];
  // For each tag, the index of the next closing tag of the same name after it.
  const nextClose = new Array<number>(tags.length).fill(-1);
  const pending = new Map<string, number>();
  for (let index = tags.length - 1; index >= 0; index -= 1) {
    const [, slash, name] = tags[index]!;
    nextClose[index] = pending.get(name!) ?? -1;
    if (slash === '/') pending.set(name!, index);
  }
  const blocks: ThinkingBlock[] = [];
  let after = 0;
  for (const [index, open] of tags.entries()) {
    if (open[1] === '/' || open.index < after || nextClose[index] === -1) continue;
    const close = tags[nextClose[index]!]!;
    const textStart = open.index + open[0].length;
    blocks.push({ start: open.index, textStart, textEnd: close.index, end: close.index + close[0].length });
    after = close.index + close[0].length;
  }
  return blocks;
}

/** `openai/gpt-4o` as provider and id; a bare name has no provider in the log. */
function modelRef(name: string): ModelRef {
  const slash = name.indexOf('/');
  return slash > 0 ? { provider: name.slice(0, slash), id: name.slice(slash + 1) } : { provider: 'unknown', id: name };
}

/** `1.8k sent, 1.2k cache write, 10k cache hit, 653 received` as usage. */
function aiderUsage(list: string, file: string, line: number): Usage {
  const counts = new Map<string, number>();
  for (const piece of list.split(', ')) {
    const match = /^([\d.,]+)([kM]?) (sent|received|cache write|cache hit)$/.exec(piece.trim());
    if (!match) throw new ImportError(file, line, `a Tokens line aider did not write this way: "${piece}"`);
    const scale = match[2] === 'k' ? 1_000 : match[2] === 'M' ? 1_000_000 : 1;
    counts.set(match[3]!, Math.round(Number(match[1]!.replace(/,/g, '')) * scale));
  }
  if (!counts.has('sent') || !counts.has('received')) throw new ImportError(file, line, 'a Tokens line without "sent" and "received"');
  const hit = counts.get('cache hit') ?? 0;
  const write = counts.get('cache write') ?? 0;
  // "sent" is the prompt_tokens aider read from the response, which hold the cached
  // part on the hosts that report a cache (unverified on a recorded log: the logs
  // read here report no cache).
  return {
    inputTokens: counts.get('sent')!,
    cachedInputTokens: hit,
    cacheWriteTokens: write,
    outputTokens: counts.get('received')!,
  };
}
