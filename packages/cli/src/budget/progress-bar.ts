/**
 * A one-line progress bar on a terminal stream (stderr), redrawn in place with a
 * carriage return and cleared when done. Redraws are throttled so a long replay
 * does not spend its time writing to the terminal.
 */
import type { Writable } from 'node:stream';

/** Characters of the bar itself. */
const barWidth = 30;
/** Minimum milliseconds between redraws. */
const redrawEvery = 80;

/** A progress bar: `update` as work is done, `done` to clear the line. */
export interface ProgressBar {
  update(done: number, total: number): void;
  done(): void;
}

/** A bar that draws nothing (not a terminal, or --json output). */
export const silentProgress: ProgressBar = { update() {}, done() {} };

/** A bar drawing `label` and the count on `stream`. `now` is injectable for tests. */
export function createProgressBar(stream: Writable, label: string, now: () => number = Date.now): ProgressBar {
  let last = Number.NEGATIVE_INFINITY;
  let drawn = false;
  return {
    update(done, total) {
      const time = now();
      if (done < total && time - last < redrawEvery) return;
      last = time;
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const filled = Math.round(share * barWidth);
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${done}/${total} calls ${Math.floor(share * 100)}%`,
      );
      drawn = true;
    },
    done() {
      // Erase the line so the report starts on a clean terminal line.
      if (drawn) stream.write('\r\u001b[2K');
    },
  };
}
