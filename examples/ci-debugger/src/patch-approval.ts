/**
 * `--confirm`: apply_patch needs a person's yes. When an episode pauses on it, the
 * patch is shown on the terminal and the question asked; the answer is recorded on
 * the session (`approve` / `reject`, persisted) and the episode resumes.
 */
import { createInterface } from 'node:readline/promises';
import type { ApprovalRequest, EpisodeResult, RunOptions, Session } from '@episodic/core';
import { printable } from './progress.js';

/** Lines of a patch shown before the question; the rest is counted, not shown. */
const SHOWN_LINES = 40;

/** Where the question is asked. */
export interface Terminal {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/** A person's answer. */
export type Answer = { approved: true } | { approved: false; reason: string };

/** Shows the call (the patch, for apply_patch) and asks; anything but y/yes declines. */
export async function askOnTerminal(request: ApprovalRequest, terminal: Terminal): Promise<Answer> {
  terminal.output.write(`\n${describeCall(request)}\n`);
  const prompt = createInterface({ input: terminal.input, output: terminal.output });
  // Ctrl-C or Ctrl-D at the prompt declines instead of leaving the question open.
  const closed = new Promise<undefined>((resolve) => prompt.once('close', () => resolve(undefined)));
  prompt.once('SIGINT', () => prompt.close());
  try {
    const question = `Apply this patch to the scratch copy? [y/N] `;
    const answer = await Promise.race([prompt.question(question).catch(() => undefined), closed]);
    if (/^\s*y(es)?\s*$/i.test(answer ?? '')) return { approved: true };
    return { approved: false, reason: 'The person at the terminal declined it; do not apply a patch again.' };
  } finally {
    prompt.close();
  }
}

/** The call as a person reviews it: the edits or the diff, control characters escaped. */
export function describeCall(request: ApprovalRequest): string {
  const args = (request.args ?? {}) as { edits?: { path: string; search: string; replace: string }[]; diff?: string };
  const lines: string[] = [];
  if (typeof args.diff === 'string') lines.push(...args.diff.split('\n'));
  for (const edit of args.edits ?? []) {
    lines.push(`--- ${edit.path}`, ...linesOf(edit.search).map((line) => `- ${line}`), ...linesOf(edit.replace).map((line) => `+ ${line}`));
  }
  if (lines.length === 0) lines.push(JSON.stringify(request.args));
  const shown = lines.slice(0, SHOWN_LINES).map((line) => `  ${printable(line)}`);
  if (lines.length > SHOWN_LINES) shown.push(`  … ${lines.length - SHOWN_LINES} more lines`);
  return [`${printable(request.toolName)} wants to change the scratch copy:`, ...shown].join('\n');
}

/** A search or replace text as lines (its final newline ends the last line; it adds none). */
function linesOf(text: string): string[] {
  return text.replace(/\n$/, '').split('\n');
}

/**
 * Runs a send or resume and, while the episode pauses for approvals, asks about
 * each waiting call, records the answer and resumes. Returns the finished episode.
 */
export async function untilFinished(
  session: Session,
  first: Promise<EpisodeResult>,
  options: { run: RunOptions; ask: (request: ApprovalRequest) => Promise<Answer> },
): Promise<EpisodeResult> {
  let result = await first;
  while (result.status === 'paused') {
    for (const request of result.pendingApprovals) {
      const answer = await options.ask(request);
      if (answer.approved) await session.approve(request);
      else await session.reject(request, { reason: answer.reason });
    }
    result = await session.resume(options.run);
  }
  return result;
}
