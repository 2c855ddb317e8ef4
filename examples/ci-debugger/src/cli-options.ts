/**
 * Command-line options of the example (`npm start -- ...`), parsed with
 * `node:util` parseArgs.
 */
import { parseArgs } from 'node:util';
import { EpisodicError } from '@episodic/core';
import { PROVIDER_NAMES } from './providers.js';

/** Parsed options. */
export interface CliOptions {
  help: boolean;
  provider: string | undefined;
  model: string | undefined;
  baseURL: string | undefined;
  budget: number | undefined;
  sessions: string;
  task: string | undefined;
  /** Offline only: send the built-in follow-up questions as further episodes. */
  followUp: boolean;
  /** Ask before each apply_patch call (the episode pauses until you answer). */
  confirm: boolean;
  /** With --confirm: approve every patch without asking (the approvals are still recorded). */
  yes: boolean;
}

/** The usage text. */
export const USAGE = `Usage: npm start -- [--provider NAME --model ID [--base-url URL]] [options]

Without --provider the agent runs offline on a scripted model (no network, no key).

  --provider NAME   ${PROVIDER_NAMES.slice(0, 7).join(', ')},
                    ${PROVIDER_NAMES.slice(7).join(', ')},
                    or any OpenAI-compatible server together with --base-url
  --model ID        model id, e.g. claude-sonnet-4-6, gpt-5-mini, gemini-3.8-flash, deepseek-chat
  --base-url URL    override the provider's endpoint (proxies, local servers)
  --budget N        max input tokens per model call (default 24000; offline 9500)
  --sessions DIR    where transcripts are saved (default .episodic/sessions)
  --task TEXT       the first user message (default: find and fix the flaky CI test)
  --no-follow-up    offline: skip the built-in follow-up questions
  --confirm         ask on the terminal before each patch is applied (apply_patch)
  --yes             with --confirm: approve every patch without asking
  -h, --help        show this help

Follow-ups: when stdin is not a terminal, each line on stdin is sent as a follow-up
user message (a new episode) in the same session; with a real provider in a
terminal you get an interactive prompt.`;

/** Bad command-line usage; the message says what to change. */
export class UsageError extends EpisodicError {
  constructor(message: string) {
    super('usage', message);
  }
}

/** Parses `argv` (without the node and script entries). */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.provider !== undefined && values.model === undefined) {
    throw new UsageError(
      `--provider ${values.provider} needs --model ID (for example --model ${exampleModel(values.provider)}).`,
    );
  }
  if (values.provider === undefined && (values.model !== undefined || values['base-url'] !== undefined)) {
    throw new UsageError('--model and --base-url need --provider NAME.');
  }
  if (values.yes === true && values.confirm !== true) {
    throw new UsageError('--yes answers the --confirm question: use it together with --confirm.');
  }
  const budget = values.budget === undefined ? undefined : Number(values.budget);
  if (budget !== undefined && !(Number.isInteger(budget) && budget >= 2_000)) {
    throw new UsageError(`--budget must be a whole number of tokens, at least 2000 (got "${values.budget}").`);
  }
  return {
    help: values.help === true,
    provider: values.provider,
    model: values.model,
    baseURL: values['base-url'],
    budget,
    sessions: values.sessions ?? '.episodic/sessions',
    task: values.task,
    followUp: values['no-follow-up'] !== true,
    confirm: values.confirm === true,
    yes: values.yes === true,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      help: { type: 'boolean', short: 'h' },
      provider: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      budget: { type: 'string' },
      sessions: { type: 'string' },
      task: { type: 'string' },
      'no-follow-up': { type: 'boolean' },
      confirm: { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
    },
  });
}

function exampleModel(provider: string): string {
  const examples: Record<string, string> = {
    anthropic: 'claude-sonnet-4-6',
    openai: 'gpt-5-mini',
    'openai-chat': 'gpt-4.1-mini',
    google: 'gemini-3.8-flash',
    deepseek: 'deepseek-chat',
    openrouter: 'anthropic/claude-sonnet-4.6',
    ollama: 'qwen3:8b',
  };
  return examples[provider] ?? 'MODEL_ID';
}
