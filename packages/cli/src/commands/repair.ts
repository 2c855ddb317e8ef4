/**
 * `episodic repair FILE`: moves the lines a reader refuses (damaged bytes, lines that
 * are not messages, results without their call, a call answered twice, a reused
 * tool-call id, a torn last line) out of a transcript, keeps a byte-exact backup,
 * and reports each line moved. Every other line stays as it was.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, type FileHandle, open, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { type CliIo, type Command, ExitCode, onePositional, parseCommandArgs, UsageError } from '../command.js';
import { checkedPath } from '../checked-file.js';
import { refuseForeignRecording } from '../foreign-recording.js';
import { type SortedLines, sortLines } from '../repair/sort-lines.js';
import { plural } from '../text-table.js';

/** Moved lines listed in the report; the rejected-lines file has them all. */
const LISTED = 20;

const options = { 'dry-run': { type: 'boolean' } } as const;

/** `episodic repair`. */
export const repairCommand: Command = {
  name: 'repair',
  summary: 'Move damaged or contradicting lines out of a transcript, keeping a backup',
  usage: 'episodic repair FILE [--dry-run]',
  help: `Checks every line of the transcript FILE as a reader does, and moves the lines it
would refuse out of the file: damaged lines (not JSON, not UTF-8, not a message,
longer than 32 MiB, nested over 100 levels), a system message below the top, tool
results without an earlier call, a second result for one call, an assistant message
reusing a tool-call id (and then its results), and a last line cut short by a crash.
The other lines stay byte for byte. The original is kept as FILE.bak and the moved
lines go to FILE.rejected.jsonl, one JSON object { line, reason, text } each (with a
number added to either name when it is taken). Stop any agent writing the session
first.

Options:
      --dry-run   Report what would be moved; write nothing`,

  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, options);
    const file = onePositional(positionals, 'transcript file');
    if (file === '-') throw new UsageError('repair rewrites a file in place: give its path, not -');
    // A link is resolved once: the file it points to is repaired, and the link stays a link.
    const real = await checkedPath(file, { what: 'the transcript to repair' });
    // Every line of another agent's recording fails a transcript's checks: moving them all aside helps no one.
    await refuseForeignRecording(file, undefined);
    const dryRun = values['dry-run'] === true;
    const output = dryRun ? undefined : await KeptLines.beside(real);
    try {
      const sorted = await sortLines(real, (bytes) => output?.write(bytes) ?? Promise.resolve());
      report(io, file, sorted, dryRun);
      if (sorted.rejected.length === 0 || !output) return ExitCode.ok;
      // The backup is a byte copy of the original, made before the repaired file replaces it.
      const backup = await createUnique(`${real}.bak`, (name) => copyFile(real, name, constants.COPYFILE_EXCL));
      const text = sorted.rejected.map((entry) => `${JSON.stringify(entry)}\n`).join('');
      const moved = await createUnique(`${real}.rejected.jsonl`, (name) => writeFile(name, text, { flag: 'wx' }));
      await output.replace(real);
      io.stdout.write(`The original is in ${backup}; the moved lines are in ${moved}.\n`);
      return ExitCode.ok;
    } finally {
      await output?.discard();
    }
  },
};

function report(io: CliIo, file: string, sorted: SortedLines, dryRun: boolean): void {
  const { lines, rejected } = sorted;
  if (rejected.length === 0) {
    io.stdout.write(`${file}: all ${plural(lines, 'line')} pass; nothing to repair.\n`);
    return;
  }
  const verb = dryRun ? 'would move' : 'moved';
  const listed = rejected.slice(0, LISTED).map((entry) => `  line ${entry.line}: ${entry.reason}\n`).join('');
  const more = rejected.length > LISTED ? `  ... and ${rejected.length - LISTED} more\n` : '';
  const tail = dryRun ? 'Nothing was written (--dry-run).\n' : '';
  io.stdout.write(`${file}: ${verb} ${rejected.length} of ${plural(lines, 'line')} aside:\n${listed}${more}${tail}`);
}

/** The kept lines, written to a temporary file beside the original and renamed over it at the end. */
class KeptLines {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;

  private constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /** A new temporary file beside `file`, with its permissions. */
  static async beside(file: string): Promise<KeptLines> {
    const path = `${file}.${randomBytes(6).toString('hex')}.repair.tmp`;
    return new KeptLines(path, await open(path, 'wx', (await stat(file)).mode));
  }

  async write(line: Buffer): Promise<void> {
    this.pending.push(line, newline);
    this.pendingBytes += line.length + 1;
    if (this.pendingBytes >= 1 << 20) await this.flush();
  }

  /** Flushes, syncs and renames the file over `target`. */
  async replace(target: string): Promise<void> {
    await this.flush();
    await this.handle.sync();
    await this.handle.close();
    this.closed = true;
    await rename(this.path, target);
  }

  /** Removes the temporary file unless it replaced the target. */
  async discard(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
    await unlink(this.path).catch(() => {});
  }

  private async flush(): Promise<void> {
    await this.handle.write(Buffer.concat(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

const newline = Buffer.from('\n');

/** Runs `create` on `name`, or `name.1`, `name.2`, ... while the name is taken. */
async function createUnique(name: string, create: (candidate: string) => Promise<void>): Promise<string> {
  for (let suffix = 0; ; suffix += 1) {
    const candidate = suffix === 0 ? name : `${name}.${suffix}`;
    try {
      await create(candidate);
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
