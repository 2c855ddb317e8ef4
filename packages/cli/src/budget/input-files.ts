/**
 * The extra files `episodic budget` reads: `--system FILE` (the system prompt as
 * text) and `--tools FILE` (tool definitions as JSON), so a replay can send the same
 * stable prefix as the live agent or the benchmark did.
 */
import { EpisodicError, type ToolSpec } from '@episodic/core';
import { z } from 'zod';
import { readCappedFile, unreadableReason } from '../read-capped-file.js';

/** A `--tools` file: an array of `{ name, description, inputSchema }`. */
export const ToolsFile = z.array(
  z.strictObject({
    name: z.string().min(1),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()),
  }),
);

/** An option's file that cannot be read or does not match its format. */
export class InputFileError extends EpisodicError {
  constructor(option: string, file: string, detail: string, options?: { cause?: unknown }) {
    super('invalid_input_file', `${option} ${file}: ${detail}`, options);
  }
}

/** The text of a `--system` file. */
export async function readSystemFile(file: string): Promise<string> {
  return readText('--system', file);
}

/** The tool definitions of a `--tools` file, validated. */
export async function readToolsFile(file: string): Promise<ToolSpec[]> {
  const text = await readText('--tools', file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputFileError('--tools', file, `not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const result = ToolsFile.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
    throw new InputFileError(
      '--tools',
      file,
      `${field}: ${issue.message} (expected [{ name, description, inputSchema }])`,
    );
  }
  return result.data;
}

async function readText(option: string, file: string): Promise<string> {
  try {
    return await readCappedFile(file);
  } catch (error) {
    throw new InputFileError(option, file, unreadableReason(error), { cause: error });
  }
}
