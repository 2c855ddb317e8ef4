/**
 * Keeps known secret values out of what an agent persists or shows. Filtering a
 * command's environment is not enough: a tool can read secrets from anywhere its
 * process can (`cat /proc/$PPID/environ` prints the agent's own environment, a
 * config file holds a key, an upstream error echoes one). So the values themselves
 * are replaced wherever they appear: in every tool result and error message, before
 * it is saved or emitted, whatever the tool.
 */

/** What a secret value is replaced with. */
export const REDACTED = '[redacted]';

/** Values shorter than this are ignored: replacing them would mangle ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/** Environment variable names that look like they hold a secret. */
const secretName = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|(^|_)AUTH(_|$)/i;

/**
 * Values of the environment variables whose names look like keys, tokens, secrets or
 * passwords (`OPENAI_API_KEY`, `GITHUB_TOKEN`, `PGPASSWORD`, ...), at least
 * `MIN_SECRET_LENGTH` (8) characters long. Default the process environment (none in a browser).
 */
export function environmentSecrets(
  environment: Readonly<Record<string, string | undefined>> = typeof process === 'undefined' ? {} : process.env,
): string[] {
  // Names first, then only their values: every read of `process.env` is a call into the
  // runtime, and reading all of them made this a tenth of a short episode's cost.
  const values: string[] = [];
  for (const name of Object.keys(environment)) {
    if (!secretName.test(name)) continue;
    const value = environment[name];
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH) values.push(value);
  }
  return values;
}

/** Replaces a fixed set of secret values with `[redacted]` (`REDACTED`). */
export class SecretRedactor {
  private readonly pattern: RegExp | undefined;
  /** How many distinct values it replaces. */
  readonly size: number;

  /** `values` shorter than `MIN_SECRET_LENGTH` (8) (and undefined ones) are left out. */
  constructor(values: Iterable<string | undefined>) {
    const distinct = [...new Set(values)].filter(
      (value): value is string => typeof value === 'string' && value.length >= MIN_SECRET_LENGTH,
    );
    // Longest first, so a key that contains another is replaced whole.
    distinct.sort((a, b) => b.length - a.length);
    this.size = distinct.length;
    this.pattern = distinct.length > 0 ? new RegExp(distinct.map(escapeRegExp).join('|'), 'g') : undefined;
  }

  /** `text` with every secret value replaced. */
  redact(text: string): string {
    return this.pattern ? text.replace(this.pattern, REDACTED) : text;
  }

  /**
   * Redacts an error's `message` and `stack`, and those of its causes, in place (the
   * error keeps its class and fields); returns it.
   */
  redactError<T>(error: T): T {
    let current: unknown = error;
    for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
      try {
        current.message = this.redact(current.message);
        if (current.stack) current.stack = this.redact(current.stack);
      } catch {
        // A read-only message (a getter without a setter): nothing this redactor can change.
      }
      current = current.cause;
    }
    return error;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
