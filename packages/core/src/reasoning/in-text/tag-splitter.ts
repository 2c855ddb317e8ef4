/**
 * Streaming splitter for reasoning wrapped in tags inside visible text
 * (`<think>...</think>` and friends), as some OpenAI-compatible servers send it.
 */

import { MarkerMatcher } from './marker-matcher.js';
import { DEFAULT_REASONING_TAGS, normalizeTagNames, tagMarkers } from './markers.js';
import { appendPiece, type SplitPiece, type StreamSplitter } from './stream-splitter.js';

/** Options of {@link createTagSplitter}. */
export interface TagSplitterOptions {
  /**
   * Tag names that wrap reasoning; default `think`, `thinking`, `reasoning`, `thought` and `analysis`. Matched ignoring
   * ASCII case, so `<THINK>` counts too.
   */
  tags?: readonly string[];
  /**
   * Start the stream inside reasoning. Use it for chat templates that put the
   * opening `<think>` in the prompt, so the model's output begins with reasoning
   * and only shows `</think>` (DeepSeek-R1 style). Default `false`.
   */
  startInReasoning?: boolean;
}

/**
 * Creates a splitter that separates tagged reasoning from visible text in a stream.
 *
 * Behaviour, chosen to keep markers out of visible text and output prompt:
 * - Markers are exactly `<name>` and `</name>` for the configured names, ASCII case
 *   ignored. Anything else (`<thinker>`, `<b>`, `<think x="1">`, `a < b`) is text.
 * - Tags do not nest: any opening marker switches to reasoning, any closing marker
 *   switches to text, whatever the name. Markers are consumed and never emitted,
 *   so a stray `</think>` without an opener disappears instead of leaking; pass
 *   `startInReasoning` when the template opens the reasoning before the output.
 * - Reasoning left open at the end of the stream is flushed as reasoning.
 * - Only the longest suffix that could still become a marker is held back (at most
 *   the longest marker's length minus one characters, 11 with the default tags);
 *   everything before it is emitted at once.
 * - Markers are found in the stream as sent. Removing one can, in contrived input
 *   such as `<th</think>ink>`, join its neighbours into marker-like text; the leak
 *   check (`checkReasoningLeak`) reports such output.
 *
 * @see https://huggingface.co/deepseek-ai/DeepSeek-R1#usage-recommendations (templates that pre-fill `<think>`)
 */
export function createTagSplitter(options: TagSplitterOptions = {}): StreamSplitter<SplitPiece> {
  const names = normalizeTagNames(options.tags ?? DEFAULT_REASONING_TAGS);
  const { open, close } = tagMarkers(names);
  const opening = new Set(open);
  const matcher = new MarkerMatcher([...open, ...close], true);
  const initial: SplitPiece['kind'] = options.startInReasoning ? 'reasoning' : 'text';
  let kind = initial;
  let held = '';

  return {
    get heldBack() {
      return held.length;
    },
    push(chunk) {
      // Fast path for the common chunk: nothing held and no `<` in sight.
      if (held === '' && chunk.indexOf('<') === -1) return chunk === '' ? [] : [{ kind, text: chunk }];
      const buffer = held + chunk;
      const pieces: SplitPiece[] = [];
      let position = 0;
      held = '';
      for (;;) {
        const scan = matcher.find(buffer, position);
        if (scan.found === 'none') {
          appendPiece(pieces, { kind, text: buffer.slice(position) });
          return pieces;
        }
        appendPiece(pieces, { kind, text: buffer.slice(position, scan.index) });
        if (scan.found === 'partial') {
          held = buffer.slice(scan.index);
          return pieces;
        }
        kind = opening.has(scan.marker) ? 'reasoning' : 'text';
        position = scan.index + scan.length;
      }
    },
    end() {
      // What is held back was never completed into a marker, so it is content.
      const pieces = appendPiece([], { kind, text: held });
      held = '';
      kind = initial;
      return pieces;
    },
  };
}
