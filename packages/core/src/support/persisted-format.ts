/**
 * Loading a saved record other than a transcript line (a pack state, a reasoning
 * sidecar, a replay-cache entry): its version is checked, then its schema, and every
 * problem becomes a {@link PersistedFormatError} that names the file (and line) and
 * the field and says what to do. Nothing is cast: what comes back passed the schema.
 */
import type { z } from 'zod/v4';
import { type PersistedFormatCode, PersistedFormatError, type PersistedFormatLocation } from '../errors/input-errors.js';
import { describeSchemaIssue } from './schema-issue.js';

/** A saved format: its schema and how to talk about it. */
export interface PersistedFormat<Schema extends z.ZodType> {
  /** The error code, such as `invalid_session_state`. */
  code: PersistedFormatCode;
  /** What a record is, for messages: `pack state`. */
  name: string;
  /** The version this code writes and reads. A record with a higher `version` is from a newer Episodic. */
  version: number;
  /** The record's schema, built on first use (see zod-loader.ts). */
  schema: () => Schema;
  /** What to do with a file that cannot be read, such as `delete it (the packer rebuilds its state from the transcript)`. */
  remedy: string;
}

function where(location: PersistedFormatLocation): string {
  return location.line === undefined ? location.file : `${location.file}, line ${location.line}`;
}

/** Validates `value` (parsed JSON) as a record of `format`; throws {@link PersistedFormatError}. */
export function parsePersisted<Schema extends z.ZodType>(
  format: PersistedFormat<Schema>,
  value: unknown,
  location: PersistedFormatLocation,
): z.output<Schema> {
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > format.version) {
    throw new PersistedFormatError(
      format.code,
      { ...location, field: 'version' },
      `${where(location)} is a version ${version} ${format.name}, written by a newer version of Episodic; ` +
        `this one reads version ${format.version}: upgrade Episodic, or ${format.remedy}.`,
    );
  }
  const result = format.schema().safeParse(value);
  if (result.success) return result.data;
  const issue = describeSchemaIssue(result.error, value);
  const subject = issue.field ? `${issue.field} ${issue.detail}` : `the record ${issue.detail}`;
  throw new PersistedFormatError(
    format.code,
    { ...location, ...(issue.field ? { field: issue.field } : {}) },
    `${where(location)}: ${subject}; it is not a valid version ${format.version} ${format.name}: ${format.remedy}.`,
  );
}

/** Parses `text` as JSON, then as {@link parsePersisted} does. */
export function parsePersistedJson<Schema extends z.ZodType>(
  format: PersistedFormat<Schema>,
  text: string,
  location: PersistedFormatLocation,
): z.output<Schema> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PersistedFormatError(
      format.code,
      location,
      `${where(location)} is not valid JSON (${(error as Error).message}); ` +
        `it is not a valid version ${format.version} ${format.name}: ${format.remedy}.`,
    );
  }
  return parsePersisted(format, value, location);
}
