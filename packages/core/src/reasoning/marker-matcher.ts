/**
 * Finds markers (`<think>`, `<|end|>`, ...) in a streaming buffer. Shared by both
 * splitters so that they hold back exactly the same way.
 *
 * Every marker starts with `<` and contains exactly one `>`, at its end. So at a `<`
 * the text up to the next `>` either is a marker or rules out every marker there,
 * and a `<` near the end of the buffer with no `>` yet can only be undecided while
 * it is a proper prefix of some marker. Decisions therefore depend only on the
 * characters at that position, never on where chunks were cut.
 */

/** What {@link MarkerMatcher.find} found. */
export type MarkerScan =
  /** A complete marker at `index`; `marker` is its canonical (lower-case) spelling. */
  | { found: 'marker'; index: number; marker: string; length: number }
  /** The buffer from `index` to its end may still become a marker: hold it back. */
  | { found: 'partial'; index: number }
  /** No marker and nothing to hold back from the start position on. */
  | { found: 'none' };

/** Lower-cases ASCII letters only, so lengths never change and no Unicode folds into a marker. */
function lowerAscii(text: string): string {
  let result = '';
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    result += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[index];
  }
  return result;
}

/** Finds a fixed set of markers, optionally ignoring ASCII case. */
export class MarkerMatcher {
  /** Length of the longest marker. A held-back suffix is always shorter than this. */
  readonly longest: number;
  private readonly markers: Set<string>;
  private readonly prefixes = new Set<string>();

  constructor(
    markers: readonly string[],
    private readonly ignoreCase: boolean,
  ) {
    const canonical = markers.map((marker) => (ignoreCase ? lowerAscii(marker) : marker));
    this.markers = new Set(canonical);
    this.longest = Math.max(...canonical.map((marker) => marker.length));
    for (const marker of canonical) {
      for (let end = 1; end < marker.length; end += 1) this.prefixes.add(marker.slice(0, end));
    }
  }

  /** The first marker, or undecided tail, at or after `from`. */
  find(buffer: string, from: number): MarkerScan {
    let index = buffer.indexOf('<', from);
    while (index !== -1) {
      const raw = buffer.slice(index, index + this.longest);
      const window = this.ignoreCase ? lowerAscii(raw) : raw;
      const close = window.indexOf('>');
      if (close !== -1) {
        const candidate = window.slice(0, close + 1);
        if (this.markers.has(candidate)) return { found: 'marker', index, marker: candidate, length: close + 1 };
      } else if (index + window.length === buffer.length && this.prefixes.has(window)) {
        return { found: 'partial', index };
      }
      index = buffer.indexOf('<', index + 1);
    }
    return { found: 'none' };
  }
}
