/**
 * Follow-up user messages after the first episode: every line of a piped stdin,
 * or an interactive prompt in a terminal. Each one becomes a new episode.
 */
import { createInterface } from 'node:readline';
import { createInterface as createPrompt } from 'node:readline/promises';

/** Where follow-ups come from. */
export interface FollowUpSource {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
  /** Offer a prompt when the input is a terminal. */
  interactive: boolean;
  /**
   * Stop waiting when no line arrives for this long (ms). Meant for the offline
   * demo, whose stdin may be an open pipe nobody writes to. Default: wait for EOF.
   */
  idleTimeoutMs?: number;
}

/** Yields follow-up messages until EOF, an empty prompt answer, or the idle timeout. */
export async function* followUps(source: FollowUpSource): AsyncGenerator<string> {
  if (source.input.isTTY) {
    if (source.interactive) yield* prompted(source);
    return;
  }
  const lines = createInterface({ input: source.input, crlfDelay: Number.POSITIVE_INFINITY });
  const iterator = lines[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await withTimeout(iterator.next(), source.idleTimeoutMs);
      if (next === undefined || next.done) return;
      const line = next.value.trim();
      if (line !== '') yield line;
    }
  } finally {
    lines.close();
  }
}

async function* prompted(source: FollowUpSource): AsyncGenerator<string> {
  const prompt = createPrompt({ input: source.input, output: source.output });
  // Ctrl-C or Ctrl-D at the prompt ends the session instead of leaving the question pending.
  const closed = new Promise<undefined>((resolve) => prompt.once('close', () => resolve(undefined)));
  prompt.once('SIGINT', () => prompt.close());
  try {
    for (;;) {
      const answer = await Promise.race([
        prompt.question('\nfollow-up (empty line to finish)> ').catch(() => undefined),
        closed,
      ]);
      const line = answer?.trim() ?? '';
      if (line === '' || line === 'exit' || line === 'quit') return;
      yield line;
    }
  } finally {
    prompt.close();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number | undefined): Promise<T | undefined> {
  if (ms === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
