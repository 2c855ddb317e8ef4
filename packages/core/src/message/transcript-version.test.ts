import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../errors/input-errors.js';
import type { Message } from './message.js';
import { formatTranscript, parseTranscriptLine, type ReadTranscriptOptions } from './transcript.js';
import { readTranscript } from './transcript-file.js';
import { transcriptVersionOf, versionLine } from './transcript-version.js';

const v1: Message[] = [
  { role: 'system', content: 'You are a CI debugger.' },
  { role: 'user', content: 'CI is red' },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', id: 'call_1', name: 'screenshot', args: {} }],
    model: { provider: 'anthropic', id: 'claude-sonnet-4-5' },
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'screenshot', content: 'saved' },
];

/** One message of each v1.1 addition, in an order every rule accepts. */
const additions: Record<string, Message> = {
  'tool result content parts': {
    role: 'tool',
    toolCallId: 'call_2',
    toolName: 'screenshot',
    content: [
      { type: 'text', text: 'the login page' },
      { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
      { type: 'image', url: 'https://ci.example.com/shot.png' },
      { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'report.pdf' },
      { type: 'file', url: 'https://ci.example.com/log.txt', mediaType: 'text/plain' },
    ],
  },
  'the final-answer marker': {
    role: 'tool',
    toolCallId: 'call_2',
    toolName: 'final_answer',
    content: 'Final answer accepted.',
    finalAnswer: true,
  },
  'a system line after the top of the transcript': { role: 'system', content: 'The model is now gpt-5.' },
  'a developer line': { role: 'developer', content: 'Answer briefly.' },
  'the injected marker': { role: 'user', content: '<system-reminder>todo list changed</system-reminder>', injected: true },
  'a compaction marker': {
    role: 'user',
    content: 'Summary of the conversation so far: CI was red because of the parser.',
    injected: true,
    compaction: { keptMessages: 2, tokensBefore: 150_000 },
  },
  'a provider-tool part': {
    role: 'assistant',
    content: [
      {
        type: 'provider-tool',
        name: 'web_search',
        kind: 'call',
        id: 'srvtoolu_1',
        text: 'playwright selector timeout',
        providerData: {
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
        },
      },
    ],
  },
};

function withAddition(addition: Message): Message[] {
  const call: Message = {
    role: 'assistant',
    content: [{ type: 'tool-call', id: 'call_2', name: 'screenshot', args: {} }],
  };
  return addition.role === 'tool' ? [...v1, call, addition] : [...v1, addition];
}

async function read(text: string, options: ReadTranscriptOptions = {}): Promise<Message[]> {
  return readTranscript(Readable.from([text]), { file: 'session.jsonl', ...options });
}

async function failure(text: string, options: ReadTranscriptOptions = {}): Promise<TranscriptError> {
  const error = await read(text, options).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TranscriptError);
  return error as TranscriptError;
}

describe('transcript v1.1', () => {
  it('writes v1 content exactly as v1 did, without a version line, and a v1 reader reads it', async () => {
    const text = formatTranscript(v1);
    expect(text.split('\n')[0]).toBe(JSON.stringify(v1[0]));
    expect(transcriptVersionOf(v1)).toBe('1');
    expect(await read(text, { accept: '1' })).toEqual(v1);
  });

  it.each(Object.entries(additions))('writes a version line for %s and reads it back unchanged', async (_what, addition) => {
    const messages = withAddition(addition);
    const text = formatTranscript(messages);
    expect(text.split('\n')[0]).toBe('{"format":"episodic-transcript","version":"1.1"}');
    expect(transcriptVersionOf(messages)).toBe('1.1');
    expect(await read(text)).toEqual(messages);
  });

  it.each(Object.entries(additions))('a v1 reader refuses %s, naming the line and the field', async (what, addition) => {
    const messages = withAddition(addition);
    const lines = messages.map((message) => JSON.stringify(message)).join('\n');
    const error = await failure(lines, { accept: '1' });
    expect(error.line).toBe(messages.length);
    expect(error.message).toContain(`session.jsonl, line ${messages.length}: ${what} needs transcript v1.1`);
    expect(error.message).toContain('this reader reads transcript v1 only');
  });

  it('a v1 reader refuses a v1.1 file at its version line', async () => {
    const error = await failure(formatTranscript(withAddition(additions['a developer line']!)), { accept: '1' });
    expect(error.line).toBe(1);
    expect(error.field).toBe('version');
    expect(error.message).toContain('this file is transcript version "1.1", and this reader reads up to 1');
  });

  it('a file that says version 1 may not hold v1.1 content', async () => {
    const text = `${versionLine('1')}\n${withAddition(additions['the injected marker']!)
      .map((message) => JSON.stringify(message))
      .join('\n')}\n`;
    const error = await failure(text);
    expect(error.message).toContain('line 6: the injected marker needs transcript v1.1, but line 1 says the file is transcript v1');
  });

  it('refuses a version it does not know, a foreign format and a version line below the top', async () => {
    const future = await failure(`{"format":"episodic-transcript","version":"2"}\n${JSON.stringify(v1[1])}\n`);
    expect(future.message).toContain('upgrade @episodic/core');
    const foreign = await failure(`{"format":"chat-log","version":"1.1"}\n`);
    expect(foreign.message).toContain('format must be "episodic-transcript"');
    const late = await failure(`${JSON.stringify(v1[1])}\n${versionLine()}\n`);
    expect(late.message).toContain('line 2: a version line may only be the first line');
  });

  it('reads v1.1 content without a version line (files written by hand, session stores)', async () => {
    const messages = withAddition(additions['tool result content parts']!);
    expect(await read(messages.map((message) => JSON.stringify(message)).join('\n'))).toEqual(messages);
  });

  it.each([
    [
      '{"role":"tool","toolCallId":"c","toolName":"x","content":[{"type":"file","mediaType":"application/pdf"}]}',
      'tool content[0].data needs data (base64) or url',
    ],
    [
      '{"role":"tool","toolCallId":"c","toolName":"x","content":[{"type":"reasoning","text":"x"}]}',
      'tool content[0].type must be one of text, image, file',
    ],
    [
      '{"role":"assistant","content":[{"type":"provider-tool","name":"web_search","kind":"call"}]}',
      'assistant content[0].providerData is required',
    ],
    [
      '{"role":"assistant","content":[{"type":"provider-tool","name":"web_search","kind":"done","providerData":{"provider":"a","model":"b"}}]}',
      'assistant content[0].kind must be one of "call", "result"',
    ],
    ['{"role":"user","content":"x","injected":"yes"}', 'user injected must be boolean (got string)'],
  ])('refuses the malformed v1.1 line %s', (line, expected) => {
    expect(() => parseTranscriptLine(line, 4)).toThrow(`line 4: ${expected}`);
  });
});
