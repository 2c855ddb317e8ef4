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
type MarkerScan =
  /** A complete marker at `index`; `marker` is its canonical (lower-case) spelling. */
  | { found: 'marker'; index: number; marker: string; length: number }
  /** The buffer from `index` to its end may still become a marker: hold it back. */
  | { found: 'partial'; index: number }
  /** No marker and nothing to hold back from the start position on. */
  | { found: 'none' };

const NONE: MarkerScan = { found: 'none' };
const NON_ASCII = /[\u0080-\uffff]/;

/** Finds a fixed set of markers, optionally ignoring ASCII case. */
export class MarkerMatcher {
  /** Length of the longest marker. A held-back suffix is always shorter than this. */
  readonly longest: number;
  private readonly markers: Set<string>;
  private readonly prefixes = new Set<string>();
  /** Characters that can follow `<` in a marker: a cheap filter for `<` in ordinary text. */
  private readonly seconds = new Set<string>();

  constructor(
    markers: readonly string[],
    private readonly ignoreCase: boolean,
  ) {
    const canonical = markers.map((marker) => (ignoreCase ? marker.toLowerCase() : marker));
    this.markers = new Set(canonical);
    this.longest = Math.max(...canonical.map((marker) => marker.length));
    for (const marker of canonical) {
      for (let end = 1; end < marker.length; end += 1) this.prefixes.add(marker.slice(0, end));
      const second = marker.charAt(1);
      this.seconds.add(second);
      if (ignoreCase) this.seconds.add(second.toUpperCase());
    }
  }

  /** The first marker, or undecided tail, at or after `from`. */
  find(buffer: string, from: number): MarkerScan {
    for (let index = buffer.indexOf('<', from); index !== -1; index = buffer.indexOf('<', index + 1)) {
      if (index + 1 < buffer.length && !this.seconds.has(buffer.charAt(index + 1))) continue;
      const window = buffer.slice(index, index + this.longest);
      const close = window.indexOf('>');
      const candidate = close === -1 ? window : window.slice(0, close + 1);
      // Markers are ASCII; refusing anything else also keeps Unicode case folding
      // (a Kelvin sign lower-cases to "k") from forming a marker.
      if (this.ignoreCase && NON_ASCII.test(candidate)) continue;
      const key = this.ignoreCase ? candidate.toLowerCase() : candidate;
      if (close !== -1) {
        if (this.markers.has(key)) return { found: 'marker', index, marker: key, length: close + 1 };
      } else if (index + window.length === buffer.length && this.prefixes.has(key)) {
        return { found: 'partial', index };
      }
    }
    return NONE;
  }
}
