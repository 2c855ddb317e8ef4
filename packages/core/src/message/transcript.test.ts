import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EpisodicError } from '../errors/episodic-error.js';
import { TranscriptError } from '../errors/input-errors.js';
import type { Message } from './message.js';
import { formatTranscript, parseTranscriptLine } from './transcript.js';
import { readTranscript, writeTranscript } from './transcript-file.js';

const sample: Message[] = [
  { role: 'system', content: 'You are a CI debugger.' },
  { role: 'user', content: 'CI is red on main' },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Look at the log first.', signature: 'c2ln', redacted: false },
      { type: 'text', text: 'Fetching the log.' },
      { type: 'tool-call', id: 'call_1', name: 'get_ci_log', args: { run: 42 } },
    ],
    model: { provider: 'anthropic', id: 'claude-sonnet-4-5' },
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'get_ci_log', content: 'FAIL test/a.test.js', isError: false },
];

async function tempFile(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'episodic-transcript-'));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('transcript v1', () => {
  it('round-trips messages byte for byte, unknown fields included', async () => {
    const withExtras = sample.map((message, index) => ({
      ...message,
      extra: { index, nested: [1, 'two'] },
    })) as Message[];
    (withExtras[2] as { content: Record<string, unknown>[] }).content[0]!.customField = 'kept';
    const text = formatTranscript(withExtras);
    const path = await tempFile('a.jsonl', text);
    const read = await readTranscript(path);
    expect(read).toEqual(withExtras);
    const out = join(path, '..', 'b.jsonl');
    await writeTranscript(out, read);
    expect(await readFile(out, 'utf8')).toBe(text);
  });

  it('reads from a stream and skips blank lines', async () => {
    const read = await readTranscript(Readable.from([`${formatTranscript(sample)}\n\n`]));
    expect(read).toHaveLength(sample.length);
  });

  it('names the line and the field of a bad part type', async () => {
    const lines = formatTranscript(sample).trimEnd().split('\n');
    const bad = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
        { type: 'thinking', text: 'x' },
      ],
    };
    while (lines.length < 16) lines.push(JSON.stringify({ role: 'user', content: 'more' }));
    lines.push(JSON.stringify(bad));
    const path = await tempFile('bad.jsonl', `${lines.join('\n')}\n`);
    const error = await readTranscript(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TranscriptError);
    expect(EpisodicError.isInstance(error)).toBe(true);
    const transcriptError = error as TranscriptError;
    expect(transcriptError.message).toContain(
      'line 17: assistant content[2].type must be one of text, reasoning, tool-call',
    );
    expect(transcriptError.message).toContain(path);
    expect(transcriptError.line).toBe(17);
    expect(transcriptError.field).toBe('content[2].type');
  });

  it.each([
    ['{"role":"user","content":', 'line 3: not valid JSON'],
    ['[1,2]', 'line 3: a message must be a JSON object'],
    [
      '{"role":"robot","content":"x"}',
      'line 3: role must be one of system, developer, user, assistant, tool, summary (got "robot")',
    ],
    ['{"role":"tool","toolName":"x","content":"y"}', 'line 3: tool toolCallId is required'],
    ['{"role":"tool","toolCallId":"c","toolName":"x","content":5}', 'line 3: tool content must be string (got number)'],
    [
      '{"role":"assistant","content":[{"type":"tool-call","id":"","name":"x","args":{}}]}',
      'line 3: assistant content[0].id must not be empty',
    ],
    [
      '{"role":"user","content":[{"type":"reasoning","text":"x"}]}',
      'line 3: user content[0].type must be one of text, image',
    ],
  ])('rejects %s with a clear message', async (line, expected) => {
    const text = `${JSON.stringify(sample[1])}\n${JSON.stringify(sample[2])}\n${line}\n`;
    const error = await readTranscript(Readable.from([text])).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TranscriptError);
    expect((error as Error).message).toContain(expected);
  });

  it('reports a missing file as a typed error', async () => {
    const error = await readTranscript('/nonexistent/episodic/x.jsonl').catch((caught: unknown) => caught);
    expect(EpisodicError.isInstance(error)).toBe(true);
    expect((error as EpisodicError).code).toBe('file_not_found');
  });

  it('parses a single line without a file name', () => {
    expect(() => parseTranscriptLine('{"role":"user"}', 9)).toThrow('line 9: user content is required');
  });

  it('writes atomically: a failed write leaves the old file intact', async () => {
    const path = await tempFile('keep.jsonl', formatTranscript(sample));
    const circular: Record<string, unknown> = { role: 'user', content: 'x' };
    circular.self = circular;
    await expect(writeTranscript(path, [circular as Message])).rejects.toThrow();
    expect(await readFile(path, 'utf8')).toBe(formatTranscript(sample));
  });
});
