/**
 * What an importer returns: the session as transcript v1.1 messages, the tool
 * definitions when the recording holds them, and an account of everything left
 * out and why, so the user can trust what was kept.
 */
import { EpisodicError, type Message, type PastReasoning, type ToolSpec } from '@episodic/core';

/** The recordings `episodic import --from` reads. */
export const importSources = ['claude-code', 'codex', 'pi', 'gemini-cli', 'aider', 'openai-chat', 'anthropic-messages'] as const;
/** One of {@link importSources}. */
export type ImportSource = (typeof importSources)[number];

/** Something of the recording that is not in the transcript. */
export interface DroppedItem {
  /** What was left out, e.g. `file-history-snapshot lines`. */
  what: string;
  /** Why, in plain words. */
  why: string;
  count: number;
  /** The first few recording lines it came from (1-based). */
  lines: number[];
  /**
   * True when what was left out is conversation content (something with a role and
   * text) that the session's context held: an import with such a drop is an error
   * unless the user accepts the loss (`--lossy`).
   */
  lossy?: boolean;
}

/** The largest plausible fixed prefix, in provider tokens, at a session's start and after a compaction. */
export interface PrefixLimit {
  start: number;
  afterCompaction: number;
  /** What the limit was measured on, for messages. */
  measuredOn: string;
}

/** What a session file shows of the fixed prefix it does not record (see `known-prefixes.ts`). */
export interface PrefixShown {
  /** MCP servers the file names (their tools are defined in every call). */
  mcpServers: number;
  /** Whether the file lists plugin skills or agents (plugins add tools and commands). */
  plugins: boolean;
}

/** A call whose reported input the transcript cannot account for. */
export interface IncompleteCall {
  /** 1-based among the calls with usage. */
  call: number;
  /** 1-based transcript line of its assistant message. */
  line: number;
  reported: number;
  /** The transcript's count of the context before the call, in provider tokens. */
  holds: number;
}

/** The recorded calls set against the transcript. */
export interface Reconciliation {
  calls: number;
  /** Share of calls whose reported input the transcript plus the fitted prefix meets within 10%. */
  withinShare: number;
  /** The fixed prefix the fit found at the session's start (provider tokens). */
  prefixTokens: number;
  limit: PrefixLimit;
  incomplete: IncompleteCall[];
}

/** An imported session. */
export interface ImportResult {
  source: ImportSource;
  file: string;
  messages: Message[];
  /** Tool definitions, when the recording holds them (API logs do, agent sessions do not). */
  tools?: ToolSpec[];
  /**
   * True when the recording holds the fixed prefix of every call (system prompt and
   * tool definitions); agent session files do not, so `episodic budget` infers it.
   */
  prefixRecorded: boolean;
  /** The agent's version, when the recording names it (the known fixed prefix depends on it). */
  agentVersion?: string;
  /** What the recording shows of the fixed prefix it does not hold (widens the plausible limit). */
  prefixShown?: PrefixShown;
  /** The provider the recording talked to, when it says so: for calls whose model it does not name. */
  provider?: string;
  /**
   * `'stripped'` when the agent itself leaves the reasoning of earlier turns out of
   * what it sends (aider), whatever the provider would accept.
   */
  pastReasoning?: PastReasoning;
  dropped: DroppedItem[];
  /** The recorded calls set against the transcript (see `reconcile.ts`); absent without usage. */
  reconciliation?: Reconciliation;
  /** Facts worth knowing about the recording (agent version, models, format). */
  notes: string[];
}

/** Lines of a recording kept per dropped item (the count says how many there were). */
const keptLineNumbers = 5;

/** Collects what an importer leaves out, grouped by what and why. */
export class DropLog {
  private readonly items = new Map<string, DroppedItem>();

  /** Records one thing left out from recording line `line`. */
  drop(what: string, why: string, line: number, count = 1): void {
    this.add(what, why, line, count, false);
  }

  /** Records conversation content left out from recording line `line`: an error unless the user accepts it. */
  dropContent(what: string, why: string, line: number): void {
    this.add(what, why, line, 1, true);
  }

  private add(what: string, why: string, line: number, count: number, lossy: boolean): void {
    const key = `${what}\u0000${why}`;
    let item = this.items.get(key);
    if (!item) {
      item = { what, why, count: 0, lines: [], ...(lossy ? { lossy: true } : {}) };
      this.items.set(key, item);
    }
    item.count += count;
    if (item.lines.length < keptLineNumbers && !item.lines.includes(line)) item.lines.push(line);
  }

  /** Everything dropped, most frequent first. */
  list(): DroppedItem[] {
    return [...this.items.values()].sort((a, b) => b.count - a.count);
  }
}

/**
 * An import that would leave out conversation content: names each kind, why and
 * the first lines. `--lossy` accepts the loss (the drops are still reported).
 */
export class LossyImportError extends EpisodicError {
  readonly file: string;
  readonly dropped: DroppedItem[];

  constructor(file: string, dropped: DroppedItem[]) {
    const list = dropped.map((item) => `${item.count} ${item.what} (${item.why}; line ${item.lines.join(', ')})`).join('; ');
    super('lossy_import', `${file}: the import would leave out conversation content: ${list}. Pass --lossy to import without it.`);
    this.file = file;
    this.dropped = dropped;
  }
}

/** A recording that cannot be imported: names the file, the line and what is wrong. */
export class ImportError extends EpisodicError {
  readonly file: string;
  readonly line: number | undefined;

  constructor(file: string, line: number | undefined, detail: string) {
    super('invalid_recording', `${file}${line === undefined ? '' : `, line ${line}`}: ${detail}`);
    this.file = file;
    this.line = line;
  }
}
