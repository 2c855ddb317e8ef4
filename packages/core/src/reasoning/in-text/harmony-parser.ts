/**
 * Streaming parser for the Harmony response format of gpt-oss models, for servers
 * that hand back the raw completion text with its special tokens.
 *
 * @see https://cookbook.openai.com/articles/openai-harmony
 */

import { MarkerMatcher } from './marker-matcher.js';
import { HARMONY_SERVICE_TOKENS, HARMONY_TOKENS, type HarmonyToken } from './markers.js';
import { appendPiece, type StreamSplitter } from './stream-splitter.js';

/** A run of Harmony output classified by channel. */
export interface HarmonyPiece {
  /** `final` channel and text outside any message: `text`; `analysis`: `reasoning`; `commentary`: `commentary`. */
  kind: 'text' | 'reasoning' | 'commentary';
  text: string;
  /** The header's `to=` target, e.g. `functions.get_weather` for a tool call. */
  recipient?: string;
  /** The content type after `<|constrain|>`, e.g. `json`. */
  contentType?: string;
}

/**
 * Channel to piece kind. A header without a channel is visible text; a channel not
 * listed here (not part of the format) is treated as reasoning, so that unknown
 * model-internal output is never shown by mistake.
 * @see https://cookbook.openai.com/articles/openai-harmony#channels
 */
const CHANNEL_KINDS: Readonly<Record<string, HarmonyPiece['kind']>> = {
  final: 'text',
  analysis: 'reasoning',
  commentary: 'commentary',
};
const UNKNOWN_CHANNEL_KIND: HarmonyPiece['kind'] = 'reasoning';

type State = 'outside' | 'header' | 'content';
type Action =
  | 'open-header'
  | 'open-header-at-channel'
  | 'header-channel'
  | 'header-constrain'
  | 'open-content'
  | 'close'
  | 'drop';

const { start, end, message, channel, constrain, return: returned, call, endOfText } = HARMONY_TOKENS;
const closeOnTerminators = { [end]: 'close', [returned]: 'close', [call]: 'close', [endOfText]: 'close' } as const;

/**
 * What each special token does in each state. Completions usually begin with
 * `<|channel|>` (the prompt ends with `<|start|>assistant`), so a channel token also
 * opens a header. A token that makes no sense where it stands is dropped, so no
 * service token ever reaches visible text; a header or message left without its
 * terminator is closed by the next `<|start|>` or `<|channel|>`.
 * @see https://cookbook.openai.com/articles/openai-harmony#message-format
 */
const TRANSITIONS: Readonly<Record<State, Readonly<Record<HarmonyToken, Action>>>> = {
  outside: {
    [start]: 'open-header',
    [channel]: 'open-header-at-channel',
    [message]: 'drop',
    [constrain]: 'drop',
    [end]: 'drop',
    [returned]: 'drop',
    [call]: 'drop',
    [endOfText]: 'drop',
  },
  header: {
    [start]: 'open-header',
    [channel]: 'header-channel',
    [constrain]: 'header-constrain',
    [message]: 'open-content',
    ...closeOnTerminators,
  },
  content: {
    [start]: 'open-header',
    [channel]: 'open-header-at-channel',
    [message]: 'drop',
    [constrain]: 'drop',
    ...closeOnTerminators,
  },
};

/** Header fields are short; past this many characters the rest is ignored, bounding memory. */
const HEADER_FIELD_LIMIT = 256;

/** The text of a message header, by part: before `<|channel|>`, after it, and after `<|constrain|>`. */
export interface HarmonyHeader {
  role: string;
  channel: string;
  constrain: string;
}

interface Header extends HarmonyHeader {
  /** The part that header text goes to now. */
  field: keyof HarmonyHeader;
}

const RECIPIENT = /(?:^|\s)to=([^\s]+)/;

/**
 * Reads kind, recipient and content type from a complete header. The recipient
 * may sit in the role or in the channel part; the content type follows
 * `<|constrain|>`, or the channel name as a bare word (`analysis to=python code`).
 * @see https://cookbook.openai.com/articles/openai-harmony#receiving-tool-calls
 */
export function parseHarmonyHeader(header: HarmonyHeader): Omit<HarmonyPiece, 'text'> {
  const recipient = RECIPIENT.exec(header.role)?.[1] ?? RECIPIENT.exec(header.channel)?.[1];
  const channelWords = header.channel.replace(RECIPIENT, ' ').trim().split(/\s+/);
  const channelName = channelWords[0] ?? '';
  const contentType = header.constrain.trim().split(/\s+/)[0] || channelWords[1];
  const kind = channelName === '' ? 'text' : (CHANNEL_KINDS[channelName] ?? UNKNOWN_CHANNEL_KIND);
  const piece: Omit<HarmonyPiece, 'text'> = { kind };
  if (recipient) piece.recipient = recipient;
  if (contentType) piece.contentType = contentType;
  return piece;
}

const OUTSIDE: Omit<HarmonyPiece, 'text'> = { kind: 'text' };

/** Builds a piece without object spread: hot path, and pieces without metadata keep one shape. */
function pieceOf(meta: Omit<HarmonyPiece, 'text'>, text: string): HarmonyPiece {
  const piece: HarmonyPiece = { kind: meta.kind, text };
  if (meta.recipient !== undefined) piece.recipient = meta.recipient;
  if (meta.contentType !== undefined) piece.contentType = meta.contentType;
  return piece;
}

class HarmonyParser implements StreamSplitter<HarmonyPiece> {
  private readonly matcher = new MarkerMatcher(HARMONY_SERVICE_TOKENS, false);
  private state: State = 'outside';
  private header: Header = { role: '', channel: '', constrain: '', field: 'role' };
  private current = OUTSIDE;
  private held = '';

  get heldBack(): number {
    return this.held.length;
  }

  push(chunk: string): HarmonyPiece[] {
    // Fast path for the common chunk: nothing held and no `<` in sight.
    if (this.held === '' && chunk.indexOf('<') === -1) return this.consume(chunk, []);
    const buffer = this.held + chunk;
    const pieces: HarmonyPiece[] = [];
    let position = 0;
    this.held = '';
    for (;;) {
      const scan = this.matcher.find(buffer, position);
      if (scan.found === 'none') {
        this.consume(buffer.slice(position), pieces);
        return pieces;
      }
      this.consume(buffer.slice(position, scan.index), pieces);
      if (scan.found === 'partial') {
        this.held = buffer.slice(scan.index);
        return pieces;
      }
      this.apply(TRANSITIONS[this.state][scan.marker as HarmonyToken]);
      position = scan.index + scan.length;
    }
  }

  end(): HarmonyPiece[] {
    // Held text never became a token, so it is content; an unfinished header is dropped.
    const pieces = this.consume(this.held, []);
    this.held = '';
    this.state = 'outside';
    this.current = OUTSIDE;
    return pieces;
  }

  private consume(text: string, pieces: HarmonyPiece[]): HarmonyPiece[] {
    if (text === '') return pieces;
    if (this.state === 'header') {
      // Truncate the same way whatever the chunking, so parsing cannot depend on it.
      const field = this.header.field;
      const value = this.header[field];
      if (value.length < HEADER_FIELD_LIMIT) this.header[field] = (value + text).slice(0, HEADER_FIELD_LIMIT);
      return pieces;
    }
    const piece = pieceOf(this.state === 'content' ? this.current : OUTSIDE, text);
    if (pieces.length === 0) pieces.push(piece);
    else appendPiece(pieces, piece);
    return pieces;
  }

  private apply(action: Action): void {
    switch (action) {
      case 'open-header':
        this.header = { role: '', channel: '', constrain: '', field: 'role' };
        this.state = 'header';
        return;
      case 'open-header-at-channel':
        this.header = { role: 'assistant', channel: '', constrain: '', field: 'channel' };
        this.state = 'header';
        return;
      case 'header-channel':
        this.header.field = 'channel';
        return;
      case 'header-constrain':
        this.header.field = 'constrain';
        return;
      case 'open-content':
        this.current = parseHarmonyHeader(this.header);
        this.state = 'content';
        return;
      case 'close':
        this.state = 'outside';
        return;
      case 'drop':
        return;
    }
  }
}

/**
 * Creates a streaming parser for raw Harmony output: `analysis` messages become
 * reasoning, `final` messages text, `commentary` messages commentary (tool calls
 * and preambles, with their recipient and content type). Headers and every
 * special token (`<|start|>`, `<|end|>`, `<|message|>`, `<|channel|>`,
 * `<|constrain|>`, `<|return|>`, `<|call|>`, `<|endoftext|>`) are consumed and
 * never reach visible text. Text outside any message is visible text, verbatim.
 * Only a suffix that could still become a special token is held back (at most 12
 * characters). Output does not depend on how the stream is cut into chunks.
 * As with the tag splitter, removing a token from contrived text (`<|st<|end|>art|>`)
 * can join its neighbours into token-like text; the leak check reports it.
 */
export function createHarmonyParser(): StreamSplitter<HarmonyPiece> {
  return new HarmonyParser();
}
