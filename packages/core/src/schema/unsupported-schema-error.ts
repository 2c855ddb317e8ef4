/** The error a schema normaliser throws for a schema its dialect cannot express. */
import { EpisodicError } from '../errors/episodic-error.js';

/** A JSON Schema uses something the target provider's schema dialect cannot express. */
export class UnsupportedSchemaError extends EpisodicError {
  constructor(message: string) {
    super('unsupported_schema', message);
  }
}
