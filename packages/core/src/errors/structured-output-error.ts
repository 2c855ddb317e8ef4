/**
 * A run asked for a structured answer and could not get one that matches its
 * schema: `invalid_output` after the retries, `missing_output` when none was given.
 */
import { EpisodicError } from './episodic-error.js';
import type { SchemaIssue } from './tool-input-error.js';

/** Why a structured answer could not be had. */
export class StructuredOutputError extends EpisodicError<'invalid_output' | 'missing_output'> {
  /** What was wrong with the last answer (empty when there was none). */
  readonly issues: readonly SchemaIssue[];
  /** Answers checked in this run. */
  readonly attempts: number;

  constructor(kind: 'invalid' | 'missing', detail: string, issues: readonly SchemaIssue[] = [], attempts = 0) {
    super(
      kind === 'invalid' ? 'invalid_output' : 'missing_output',
      kind === 'invalid'
        ? `The model's final answer did not match the output schema after ${attempts} attempts (${detail}). ` +
          'Describe the fields better (zod .describe()), loosen the schema, or raise outputRetries.'
        : `No final answer to check against the output schema: ${detail}.`,
    );
    this.issues = issues;
    this.attempts = attempts;
  }
}
