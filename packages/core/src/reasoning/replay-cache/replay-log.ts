/**
 * One line of a {@link FileReplayCache} log: a {@link ReplayEntry} as JSON. Lines
 * carry no version today; a line with `version` above 1 comes from a newer Episodic
 * and is refused. Validated on load; the reasoning parts are checked like transcript
 * parts, so their opaque data and unknown fields survive.
 */
import type { z } from 'zod/v4';
import { transcriptSchemas } from '../../message/transcript-schema.js';
import { type PersistedFormat, parsePersisted } from '../../support/persisted-format.js';
import type { Agree, Proven } from '../../support/schema-agreement.js';
import { lazily, type ZodModule } from '../../support/zod-loader.js';
import type * as Types from './replay-cache.js';

function buildEntry(z: ZodModule['z']) {
  return z.object({
    key: z.string().min(1),
    provider: z.string(),
    model: z.string(),
    parts: z.array(transcriptSchemas().ReasoningPart),
    tokens: z.number().int().nonnegative(),
    storedAt: z.number(),
  });
}

const buildLine = (z: ZodModule['z']) => buildEntry(z).extend({ version: z.literal(1).optional() });

const replayLogFormat: PersistedFormat<ReturnType<typeof buildLine>> = {
  code: 'invalid_replay_cache',
  name: 'replay-cache log',
  version: 1,
  schema: lazily(buildLine),
  remedy: 'delete the file (the cache starts empty and stores reasoning again as the agent runs)',
};

/** The entry on line `line` of the log `file` (`value` is the line's JSON); throws {@link PersistedFormatError}. */
export function parseReplayLogLine(value: unknown, file: string, line: number): Types.ReplayEntry {
  const { version: _version, ...entry } = parsePersisted(replayLogFormat, value, { file, line });
  return entry;
}

/** The line that stores `entry` (newline included). */
export function replayLogLine(entry: Types.ReplayEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

// The ReplayEntry interface and this schema describe the same data (checked when compiling).
type _ReplayEntryAgrees = Proven<Agree<Types.ReplayEntry, z.output<ReturnType<typeof buildEntry>>>>;
