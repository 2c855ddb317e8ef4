/**
 * Runs a model-supplied regular expression over lines with a time limit. JavaScript
 * regexes backtrack without bound and run synchronously, so a pattern such as
 * `(a+)+$` on a line of forty `a`s and a `b` would block the process for ages; a tool
 * timeout cannot interrupt it. A `vm` script's `timeout` can: V8 terminates the
 * script, regex included, and the process carries on.
 *
 * @see https://nodejs.org/api/vm.html#scriptrunincontextcontextifiedobject-options
 */
import vm from 'node:vm';

/** The lines of a batch the regex matched, by index. */
const matchBatch = new vm.Script(
  'matches = []; for (let i = 0; i < lines.length; i++) if (regex.test(lines[i])) matches.push(i);',
);

interface MatchContext {
  regex: RegExp;
  lines: readonly string[];
  matches: number[];
}

/** A regex that gives up on a batch of lines after `timeoutMs`. */
export class BoundedRegex {
  private readonly context: MatchContext;

  constructor(
    regex: RegExp,
    readonly timeoutMs: number,
  ) {
    this.context = vm.createContext({ regex, lines: [], matches: [] }) as MatchContext;
  }

  /**
   * Indexes of the lines that match, or `undefined` when matching the batch took longer
   * than the time limit.
   */
  matchingLines(lines: readonly string[]): number[] | undefined {
    this.context.lines = lines;
    try {
      matchBatch.runInContext(this.context, { timeout: this.timeoutMs });
      return this.context.matches;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
      throw error;
    } finally {
      this.context.lines = [];
    }
  }
}
