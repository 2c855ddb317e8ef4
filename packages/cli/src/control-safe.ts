/**
 * Output that cannot drive the terminal. Transcripts hold text from models, users and
 * tools (CI logs are full of ANSI colour codes); printed raw, an escape sequence could
 * retitle the terminal, clear it, hide text or break the table layout. Control
 * characters other than tab and newline are written as `\uXXXX`, which is also how
 * JSON writes them, so `--json` output means the same after the escaping.
 */
import { Writable } from 'node:stream';

// Everything but tab, newline and printable text: the C0 controls, DEL and the C1
// controls (0x9b is a CSI on some terminals).
const CONTROL = /[^\t\n\u0020-\u007e\u00a0-\uffff]/g;

/** `text` with control characters (other than tab and newline) written as `\uXXXX`. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A stream that writes to `target` with {@link escapeControl} applied to every chunk. */
export function controlSafe(target: Writable): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      // Like the commands themselves, leave buffering to the target (stdout keeps order).
      target.write(escapeControl(chunk.toString()));
      callback();
    },
  });
}
