/**
 * The example's command line: runs the CI-debugging agent. Offline by default (a scripted model
 * that decides every step from the real tool results); `--provider` and `--model`
 * switch to a real model. Prints progress per step, context stats per model call
 * and a summary, and saves the session transcript.
 */
import path from 'node:path';
import { autoApprove, type EpisodeResult, EpisodicError, type ModelAdapter, type RunOptions, type Session } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { createCiDebugger, DEFAULT_TASK, OFFLINE_BUDGET, OFFLINE_FOLLOW_UPS } from './agent.js';
import { type CliOptions, parseCliOptions, USAGE } from './cli-options.js';
import { followUps } from './follow-ups.js';
import { offlineModel } from './offline-model.js';
import { askOnTerminal, untilFinished } from './patch-approval.js';
import { ProgressPrinter } from './progress.js';
import { createModel } from './providers.js';
import { formatSummary } from './summary.js';

const OFFLINE_BANNER = `Episodic CI debugger: running OFFLINE with a scripted model (no network, no API key).
  The scripted model reasons and calls the real tools step by step, deciding each step from the tool results.
  To use a real model:  npm start -- --provider anthropic --model claude-sonnet-4-6   (reads ANTHROPIC_API_KEY)
  Other providers: openai, openai-chat, google, deepseek, openrouter, ollama, ... (npm start -- --help)`;

/** The streams the command line talks to (injectable for tests). */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
}

/** Runs the example; resolves to the process exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const write = (text: string) => {
    io.stdout.write(text);
  };
  const setup = prepare(argv, io);
  if (typeof setup === 'number') return setup;
  const { options, model, offline } = setup;
  write(offline ? `${OFFLINE_BANNER}\n` : `Episodic CI debugger: ${model.model.provider} / ${model.model.id}\n`);
  const store = new FileSessionStore({ directory: path.resolve(options.sessions) });
  const budget = options.budget ?? (offline ? OFFLINE_BUDGET : undefined);
  const { agent, scratch } = createCiDebugger({ model, budget, store, confirmPatches: options.confirm });
  const session = await agent.session();
  const transcript = store.transcriptPath(session.id);
  write(
    `Session ${session.id} (budget ${agent.budget.toLocaleString('en-US')} tokens per call), transcript: ${transcript}\n`,
  );
  const progress = new ProgressPrinter({ write, color: colorWanted(io), providerCache: !offline });
  const started = Date.now();
  // Ctrl-C stops the run cleanly: the transcript stays consistent (no tool call without a result).
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort(new Error('interrupted (Ctrl-C)'));
  process.once('SIGINT', onSigint);
  try {
    const outcome = await converse(session, options, progress, { offline, io, signal: interrupt.signal });
    const seconds = (Date.now() - started) / 1000;
    write(
      `${formatSummary({ run: progress.totals, usage: session.totals, seconds, transcript, realProvider: !offline })}\n`,
    );
    if (offline && options.task === undefined && !/Verified fix/.test(outcome.text)) {
      io.stderr.write('The offline run ended without a verified fix; see the transcript for what happened.\n');
      return 1;
    }
    return 0;
  } catch (error) {
    io.stderr.write(`\nThe run stopped: ${(error as Error).message}\nTranscript so far: ${transcript}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
    await scratch.dispose();
  }
}

/** Parses the options and builds the model; an exit code when there is nothing to run (help, usage or setup error). */
function prepare(
  argv: readonly string[],
  io: CliIo,
): { options: CliOptions; model: ModelAdapter; offline: boolean } | number {
  let options: CliOptions;
  try {
    options = parseCliOptions(argv);
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.confirm && !options.yes && io.stdin.isTTY !== true) {
    io.stderr.write('--confirm asks on the terminal, and stdin is not one: run it in a terminal, or add --yes.\n');
    return 2;
  }
  const offline = options.provider === undefined;
  try {
    const model = offline
      ? offlineModel()
      : createModel({ provider: options.provider!, model: options.model!, baseURL: options.baseURL });
    return { options, model, offline };
  } catch (error) {
    if (!EpisodicError.isInstance(error)) throw error;
    io.stderr.write(`${error.message}\n`);
    return 2;
  }
}

/** The first episode, the offline follow-up, then follow-ups from stdin. Returns the first episode's outcome. */
async function converse(
  session: Session,
  options: CliOptions,
  progress: ProgressPrinter,
  { offline, io, signal }: { offline: boolean; io: CliIo; signal: AbortSignal },
): Promise<EpisodeResult> {
  const runOptions: RunOptions = {
    onEvent: progress.onEvent,
    signal,
    // --confirm --yes: every patch approved without asking (the results still say so).
    ...(options.yes ? { approvalPolicy: autoApprove } : {}),
  };
  const ask = (request: Parameters<typeof askOnTerminal>[0]) =>
    askOnTerminal(request, { input: io.stdin, output: io.stdout });
  const run = (input: string) => untilFinished(session, session.send(input, runOptions), { run: runOptions, ask });
  const first = await run(options.task ?? DEFAULT_TASK);
  if (offline && options.followUp && options.task === undefined) {
    for (const question of OFFLINE_FOLLOW_UPS) await run(question);
  }
  const source = followUps({
    input: io.stdin,
    output: io.stdout,
    interactive: !offline,
    // Offline, nobody may be writing to an open stdin pipe: do not wait for it forever.
    idleTimeoutMs: offline ? 1_500 : undefined,
  });
  for await (const line of source) await run(line);
  if (offline && io.stdin.isTTY) {
    io.stdout.write(
      '\n(Offline: pipe follow-up questions on stdin, e.g. echo "Is #1847 the same flake?" | npm start)\n',
    );
  }
  return first;
}

function colorWanted(io: CliIo): boolean {
  return io.stdout.isTTY === true && process.env.NO_COLOR === undefined;
}
