/**
 * The offline model behind the web chat: a scripted model (`@episodic/core/testing`)
 * that decides each step from the request it gets, so the whole SDK path runs for
 * real (packing, reasoning, tool calls through the loop, the UI stream); only the
 * thinking is canned. Each question takes three model calls: list the project's
 * files, read the one the question names (else the README), answer from it.
 */
import { type ModelAdapter, ModelError, type ModelRequest, type ToolMessage, type UserMessage, toolResultText, userText } from '@episodic/core';
import { type ScriptedModel, type ScriptStep, scriptedModel } from '@episodic/core/testing';

/** The model reference written into transcripts. */
export const DEMO_MODEL = { provider: 'offline', id: 'scripted-web-chat' } as const;

/** Options of {@link demoModel}. */
export interface DemoModelOptions {
  /** Delay before each call streams, in ms (default 120). */
  latencyMs?: number;
  /** Characters per streamed delta (default 6). */
  chunkSize?: number;
  /** Delay between deltas, in ms (default 25), so the page shows the text arriving. */
  deltaDelayMs?: number;
}

/** The offline scripted model, streaming at a readable pace. */
export function demoModel(options: DemoModelOptions = {}): ModelAdapter {
  const scripted = scriptedModel({
    model: { ...DEMO_MODEL },
    steps: (request) => demoStep(request),
    latencyMs: options.latencyMs ?? 120,
    chunkSize: options.chunkSize ?? 6,
  });
  return paced(scripted, options.deltaDelayMs ?? 25);
}

/** The scripted model plays its deltas back to back; a real model's arrive over time. */
function paced(model: ScriptedModel, delayMs: number): ModelAdapter {
  return {
    model: model.model,
    profile: model.profile,
    async* stream(request, options) {
      for await (const event of model.stream(request, options)) {
        if (event.type.endsWith('-delta') && delayMs > 0) {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          if (options?.signal?.aborted) throw new ModelError('aborted', 'The demo model call was aborted.');
        }
        yield event;
      }
    },
  };
}

/** The next step for a packed request: see the file comment. */
export function demoStep(request: ModelRequest): ScriptStep {
  const { question, results } = currentEpisode(request);
  // "Remember …" saves a note, which waits for the person's approval in the page.
  if (/^remember\b/i.test(question)) return noteStep(question, results.find((result) => result.toolName === 'save_note'));
  const listing = results.find((result) => result.toolName === 'list_files');
  const read = results.find((result) => result.toolName === 'read_file');
  if (!listing) {
    return {
      reasoning: `The question is "${question}". I have not looked at the project yet, so I list its files first.`,
      toolCalls: [{ name: 'list_files', args: { depth: 3 } }],
    };
  }
  if (!read) {
    const files = toolResultText(listing).split('\n').map((line) => line.trim()).filter((line) => /\.\w+$/.test(line));
    const path = files.find((file) => question.includes(file) || question.includes(file.split('/').pop()!));
    const chosen = path ?? 'README.md';
    return {
      reasoning:
        `The project has ${files.length} files. ` +
        (path ? `The question names ${path}, so I read it.` : 'None is named in the question; the README should say what matters.'),
      toolCalls: [{ name: 'read_file', args: { path: chosen } }],
    };
  }
  return answer(read);
}

function noteStep(question: string, saved: ToolMessage | undefined): ScriptStep {
  if (!saved) {
    const text = question.replace(/^remember\b[:,]?\s*/i, '');
    return { reasoning: 'The person asks me to keep a note; saving one needs their approval.', toolCalls: [{ name: 'save_note', args: { text } }] };
  }
  if (saved.isError) return { reasoning: 'The note was not saved; I say so.', text: `I did not save the note: ${toolResultText(saved)}` };
  return { reasoning: 'The note is saved.', text: `Done. ${toolResultText(saved).split('\n')[0]}` };
}

function answer(read: ToolMessage): ScriptStep {
  if (read.isError) {
    return { reasoning: 'The file could not be read; I say so.', text: `I could not read it: ${toolResultText(read)}` };
  }
  // read_file prints "path: lines 1-N of N", then one "number<TAB>text" line per line.
  const path = /^(.+?): lines/.exec(toolResultText(read))?.[1] ?? 'the file';
  const lines = toolResultText(read).split('\n').filter((line) => /^\d+\t/.test(line)).map((line) => line.replace(/^\d+\t/, ''));
  const sentence = lines.find((line) => line.trim().split(/\s+/).length >= 3 && !line.startsWith('#')) ?? lines[0] ?? '';
  return {
    reasoning: `I have ${path}: ${lines.length} lines. I quote its first real sentence and offer the next step.`,
    text:
      `**${path}** has ${lines.length} lines. It starts with:\n\n> ${sentence.trim()}\n\n` +
      'Ask me about another file, for example `src/queue.js` or `test/queue.test.js`.',
  };
}

/** The question that opened the current episode and the tool results since. */
function currentEpisode(request: ModelRequest): { question: string; results: ToolMessage[] } {
  const messages = request.messages;
  let start = messages.length - 1;
  while (start >= 0 && messages[start]?.role !== 'user') start -= 1;
  const user = messages[start] as UserMessage | undefined;
  const results = messages.slice(start + 1).filter((message): message is ToolMessage => message.role === 'tool');
  return { question: user ? userText(user) : '', results };
}
