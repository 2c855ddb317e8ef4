/**
 * The agent behind the web chat: read-only file tools over a small sample project,
 * on the offline scripted model by default (pass any model adapter instead).
 */
import { fileURLToPath } from 'node:url';
import { Agent, type ModelAdapter, type SessionStore } from '@episodic/core';
import { defineTool, fileTools } from '@episodic/tools';
import { z } from 'zod';
import { demoModel, type DemoModelOptions } from './demo-model.js';

/** The project the assistant reads (found relative to this module, from src/ and dist/ alike). */
export const SAMPLE_PROJECT = fileURLToPath(new URL('../sample-project/', import.meta.url));

/** The system prompt. */
export const SYSTEM_PROMPT =
  'You answer questions about the JavaScript project you can read with your tools. ' +
  'List the files first, read what the question needs, and answer briefly, quoting the file.';

/** A tool that waits for the person's approval in the page: it keeps a note (in memory). */
export const saveNote = defineTool({
  name: 'save_note',
  description: 'Saves a note for later. The person approves each note in the chat.',
  input: z.object({ text: z.string().max(500) }),
  needsApproval: true,
  execute: ({ text }) => `Saved the note: ${text}`,
});

/** Options of {@link createDemoAgent}. */
export interface DemoAgentOptions {
  /** Default: the offline scripted model. */
  model?: ModelAdapter;
  /** Settings of the offline model (ignored with `model`). */
  offline?: DemoModelOptions;
  store?: SessionStore;
}

/** Builds the web chat's agent. */
export function createDemoAgent(options: DemoAgentOptions = {}): Agent {
  return new Agent({
    model: options.model ?? demoModel(options.offline),
    system: SYSTEM_PROMPT,
    tools: [...fileTools({ root: SAMPLE_PROJECT }), saveNote],
    store: options.store,
    context: { budget: 16_000 },
  });
}
