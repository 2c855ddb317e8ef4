/**
 * Schemas from any validation library that implements Standard Schema
 * (https://standardschema.dev): zod 3.25+ and 4, valibot, arktype and others. A
 * tool's input and a structured answer are validated through the library's own
 * `~standard.validate`, so core runs no library-specific code to check a value.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { InvalidArgumentError } from '../errors/input-errors.js';

export type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

/** A schema from any Standard Schema library: what tools and structured answers accept. */
export type AnySchema = StandardSchemaV1;

/** The type a schema's validation produces (what `execute` receives). */
export type SchemaOutput<Schema extends StandardSchemaV1> = StandardSchemaV1.InferOutput<Schema>;

/** One problem a schema found: where (keys from the root) and what. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | StandardSchemaV1.PathSegment)[] | undefined;
  /** Set by zod: the kind of problem, which the model-facing wording uses. */
  readonly code?: string;
}

/** The outcome of {@link validateWith}. */
export type Validation<Output> =
  | { readonly success: true; readonly data: Output }
  | { readonly success: false; readonly issues: readonly StandardIssue[] };

/** True for a value that implements Standard Schema v1. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  if (value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/**
 * Throws an {@link InvalidArgumentError} when `schema` is not a Standard Schema;
 * `subject` names it in the message.
 */
export function assertStandardSchema(schema: unknown, subject: string): asserts schema is StandardSchemaV1 {
  if (!isStandardSchema(schema)) {
    throw new InvalidArgumentError(
      `${subject} is not a Standard Schema (no "~standard" with version 1 and validate()): use zod 3.25+ or 4, valibot, arktype or another library that implements https://standardschema.dev.`,
    );
  }
}

/** Validates `value` with the schema's own library (awaiting it when the library is async). */
export async function validateWith<Schema extends StandardSchemaV1>(
  schema: Schema,
  value: unknown,
): Promise<Validation<SchemaOutput<Schema>>> {
  const result = await schema['~standard'].validate(value);
  if (result.issues === undefined) return { success: true, data: result.value as SchemaOutput<Schema> };
  return { success: false, issues: result.issues };
}

/** The keys of an issue's path, with Standard Schema's `{ key }` segments unwrapped. */
export function issuePath(issue: StandardIssue): PropertyKey[] {
  return (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment));
}
