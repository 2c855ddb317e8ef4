/**
 * Collects a stream of output bytes keeping only its head and its tail, so a command
 * that prints megabytes costs a bounded amount of memory and context, and the model
 * still sees how the output began and how it ended (where errors and summaries are).
 */

/** Share of the cap given to the head; the tail usually matters more. */
const HEAD_SHARE = 0.4;

/** A bounded head + tail collector of bytes. */
export class HeadTailBuffer {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);
  private total = 0;

  constructor(readonly maxBytes: number) {
    this.headCap = Math.floor(maxBytes * HEAD_SHARE);
    this.tailCap = maxBytes - this.headCap;
  }

  /** Bytes seen so far. */
  get totalBytes(): number {
    return this.total;
  }

  /** Adds a chunk. */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.headCap) {
      const taken = rest.subarray(0, this.headCap - this.head.length);
      this.head = Buffer.concat([this.head, taken]);
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) return;
    const joined = Buffer.concat([this.tail, rest]);
    this.tail = joined.length > this.tailCap ? joined.subarray(joined.length - this.tailCap) : joined;
  }

  /**
   * The output as text: whole when it fit, else head, a marker saying how many bytes
   * were cut, and tail.
   */
  toString(): string {
    const cut = this.total - this.head.length - this.tail.length;
    if (cut <= 0) return Buffer.concat([this.head, this.tail]).toString('utf8');
    // Characters split by a cut decode as U+FFFD; trim them rather than show noise.
    const head = this.head.toString('utf8').replace(/\uFFFD+$/, '');
    const tail = this.tail.toString('utf8').replace(/^\uFFFD+/, '');
    return `${head}\n[... ${cut} bytes cut from the middle of the output ...]\n${tail}`;
  }
}
