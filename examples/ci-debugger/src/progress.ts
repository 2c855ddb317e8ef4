/**
 * What the user sees while the agent works: per step the streamed reasoning (cut
 * to a preview), each tool call and the size of its result, then one line of
 * context stats after the model call; and totals for the summary at the end.
 */
import { type AgentEvent, toolResultText, type Usage } from '@episodic/core';
import { type PackStats } from '@episodic/core/packing';

/** Where progress goes and how it looks. */
export interface ProgressOptions {
  write: (text: string) => void;
  color: boolean;
  /** True when the provider reports cached tokens (real providers); offline it is always 0. */
  providerCache: boolean;
}

/** Totals over the whole run, for the summary. */
export interface RunTotals {
  episodes: number;
  steps: number;
  toolCalls: number;
  packedTokens: number;
  predictedReuseTokens: number;
  evictedEpisodes: number;
  reasoningDroppedParts: number;
}

const REASONING_PREVIEW = 320;

/** A stateful event handler that renders progress and keeps totals. */
export class ProgressPrinter {
  readonly totals: RunTotals = {
    episodes: 0,
    steps: 0,
    toolCalls: 0,
    packedTokens: 0,
    predictedReuseTokens: 0,
    evictedEpisodes: 0,
    reasoningDroppedParts: 0,
  };

  private stats: PackStats | undefined;
  private reasoningChars = 0;
  private inText = false;

  constructor(private readonly options: ProgressOptions) {}

  /** Handles one agent event. */
  readonly onEvent = (event: AgentEvent): void => {
    const { write } = this.options;
    switch (event.type) {
      case 'episode-start':
        this.totals.episodes += 1;
        if (event.input)
          write(`\n${this.bold(`▶ Episode ${this.totals.episodes}`)}: ${preview(textOf(event.input.content), 200)}\n`);
        break;
      case 'context-packed':
        this.stats = event.stats;
        this.reasoningChars = 0;
        this.totals.steps += 1;
        write(`${this.bold(`step ${event.step}`)}`);
        break;
      case 'reasoning-delta':
        this.reasoning(event.text);
        break;
      case 'text-delta':
        this.text(event.text);
        break;
      case 'tool-call':
        this.endLine();
        this.totals.toolCalls += 1;
        write(`  → ${printable(event.call.name)} ${preview(JSON.stringify(event.call.args), 140)}\n`);
        break;
      case 'approval-requested':
        write(`  ${this.yellow('?')} ${printable(event.request.toolName)} waits for your approval\n`);
        break;
      case 'tool-result':
        write(
          `  ${event.result.isError ? this.red('✗') : '←'} ${printable(event.result.toolName)} ${size(toolResultText(event.result).length)} ` +
            `(${Math.round(event.durationMs)} ms)${event.result.isError ? `: ${preview(toolResultText(event.result), 160)}` : ''}\n`,
        );
        break;
      case 'step-finish':
        this.endLine();
        if (this.stats) write(`${this.dim(statsLine(this.stats, event.usage, this.options.providerCache))}\n`);
        this.count(this.stats);
        break;
      case 'warning':
        write(`  ${this.yellow('warning')}: ${printable(event.message)}\n`);
        break;
      case 'error':
        this.endLine();
        write(`  ${this.red(event.willRetry ? 'retrying after error' : 'error')}: ${printable(event.error.message)}\n`);
        break;
      case 'episode-finish':
        this.endLine();
        break;
    }
  };

  private reasoning(text: string): void {
    const { write } = this.options;
    if (this.reasoningChars === 0) write(`  ${this.dim('thinking:')} `);
    const room = REASONING_PREVIEW - this.reasoningChars;
    if (room > 0) write(this.dim(printable(text.slice(0, room).replaceAll('\n', ' '))));
    if (room > 0 && text.length >= room) write(this.dim('…'));
    this.reasoningChars += text.length;
  }

  private text(text: string): void {
    if (!this.inText) {
      this.endLine();
      this.options.write('\n');
      this.inText = true;
    }
    this.options.write(printable(text));
  }

  /** Ends a reasoning preview or a streamed answer with its size. */
  private endLine(): void {
    if (this.reasoningChars > 0) {
      this.options.write(this.dim(` [${this.reasoningChars.toLocaleString('en-US')} chars of reasoning]\n`));
      this.reasoningChars = 0;
    } else if (this.inText) {
      this.options.write('\n\n');
    }
    this.inText = false;
  }

  private count(stats: PackStats | undefined): void {
    if (!stats) return;
    this.totals.packedTokens += stats.tokens.total;
    this.totals.predictedReuseTokens += stats.prefixReuseTokens;
    this.totals.evictedEpisodes = stats.evictedEpisodes;
    this.totals.reasoningDroppedParts = Math.max(this.totals.reasoningDroppedParts, stats.reasoning.droppedParts);
    this.stats = undefined;
  }

  private paint(code: string, text: string): string {
    return this.options.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  }

  private bold = (text: string) => this.paint('1', text);
  private dim = (text: string) => this.paint('2', text);
  private red = (text: string) => this.paint('31', text);
  private yellow = (text: string) => this.paint('33', text);
}

/**
 * One line of context stats for a model call: tokens by section, reasoning kept
 * and dropped, evicted episodes, predicted cache reuse, and the provider's cached
 * tokens when it reports them.
 */
export function statsLine(stats: PackStats, usage: Usage | undefined, providerCache: boolean): string {
  const { tokens, reasoning } = stats;
  const reuse = tokens.total === 0 ? 0 : Math.round((100 * stats.prefixReuseTokens) / tokens.total);
  const parts = [
    `context ${number(tokens.total)}/${number(stats.budget)} tok`,
    `system ${number(tokens.system)} · tools ${number(tokens.tools)} · history ${number(tokens.history + tokens.summary)} · episode ${number(tokens.currentEpisode)}`,
    `reasoning kept ${reasoning.keptParts} (${number(reasoning.keptTokens)} tok) dropped ${reasoning.droppedParts}`,
    `evicted ${stats.evictedEpisodes}${stats.evictedNow ? ' (now)' : ''}`,
    `cache reuse ~${reuse}% (${number(stats.prefixReuseTokens)} tok)`,
  ];
  if (stats.truncatedToolResults > 0) parts.push(`shortened results ${stats.truncatedToolResults}`);
  if (providerCache && usage)
    parts.push(`provider cached ${number(usage.cachedInputTokens ?? 0)}/${number(usage.inputTokens)}`);
  return `  ${parts.join(' | ')}`;
}

function textOf(content: string | readonly { type: string; text?: string }[]): string {
  return typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');
}

function preview(text: string, max: number): string {
  const flat = text.replaceAll(/\s+/g, ' ');
  return printable(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

// Everything but tab, newline and printable text: C0 controls, DEL and C1 controls.
const CONTROL = /[^\t\n\u0020-\u007e\u00a0-\uffff]/g;

/**
 * Model, user and tool text with its control characters written as `\uXXXX`, so an
 * escape sequence in it cannot retitle, clear or recolour the terminal.
 */
export function printable(text: string): string {
  return text.replaceAll(CONTROL, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function size(chars: number): string {
  return chars < 1000 ? `${chars} chars` : `${(chars / 1000).toFixed(1)}k chars`;
}

function number(value: number): string {
  return value.toLocaleString('en-US');
}
