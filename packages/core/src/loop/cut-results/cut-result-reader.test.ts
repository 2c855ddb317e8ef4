import { describe, expect, it } from 'vitest';
import { ToolInputError } from '../../errors/tool-input-error.js';
import type { Message, ToolMessage } from '../../message/message.js';
import { createTokenCounter } from '../../tokens/token-counter.js';
import { toolInputSchema } from '../../support/json-schema.js';
import { CUT_RESULT_READER, cutResultReader, READER_INPUT_SCHEMA, readerInput } from './cut-result-reader.js';

const log = Array.from({ length: 2_000 }, (_, index) => `line ${index}: the build step ${index % 17} printed this`).join('\n');
const counter = createTokenCounter();
const context = { signal: new AbortController().signal, toolCallId: 'call_read' };

function transcript(...results: ToolMessage[]): Message[] {
  return [
    { role: 'user', content: 'look at the log' },
    {
      role: 'assistant',
      content: results.map((result) => ({ type: 'tool-call' as const, id: result.toolCallId, name: result.toolName, args: {} })),
    },
    ...results,
  ];
}

const big: ToolMessage = { role: 'tool', toolCallId: 'call_log', toolName: 'bash', content: log };

/** Header, text and footer of a read. */
function parse(content: string) {
  const header = /^\[(\S+) \((\w+)\), characters (\d+) to (\d+) of (\d+)\]\n/.exec(content);
  if (!header) throw new Error(`no header in ${content.slice(0, 120)}`);
  const footer = /\n\[(\d+) characters left; to read on call read_cut_result with (\{.*\})\]$/.exec(content);
  const text = content.slice(header[0].length, footer ? footer.index : content.length);
  return {
    call: header[1],
    tool: header[2],
    from: Number(header[3]),
    to: Number(header[4]),
    of: Number(header[5]),
    text,
    next: footer ? (JSON.parse(footer[2]!) as { toolCallId: string; offset: number }) : undefined,
    left: footer ? Number(footer[1]) : 0,
  };
}

describe('the reader of cut results', () => {
  it('reads the original text from the offset, within its token limit, and says how to read on', async () => {
    const reader = cutResultReader({ messages: () => transcript(big), maxTokens: 500, counter });
    expect(reader.spec.name).toBe(CUT_RESULT_READER);
    expect(reader.idempotent).toBe(true);
    expect(reader.needsApproval).toBe(false);
    const output = await reader.execute({ toolCallId: 'call_log', offset: 1_234 }, context);
    expect(output.isError).toBeUndefined();
    const read = parse(output.content);
    expect(read).toMatchObject({ call: 'call_log', tool: 'bash', from: 1_234, of: log.length });
    expect(read.text).toBe(log.slice(1_234, read.to));
    expect(read.next).toEqual({ toolCallId: 'call_log', offset: read.to });
    expect(read.left).toBe(log.length - read.to);
    expect(counter.countText(output.content)).toBeLessThanOrEqual(500);
    // Most of the room goes to the text (a read that returned a line would pass the checks above).
    expect(counter.countText(read.text)).toBeGreaterThan(350);
  });

  it('reads a whole result piece by piece, following the offsets it gives', async () => {
    const reader = cutResultReader({ messages: () => transcript(big), maxTokens: 1_000, counter });
    let offset = 0;
    let text = '';
    let reads = 0;
    for (;;) {
      const read = parse((await reader.execute({ toolCallId: 'call_log', offset }, context)).content);
      expect(read.from).toBe(offset);
      text += read.text;
      reads += 1;
      if (!read.next) break;
      offset = read.next.offset;
    }
    expect(text).toBe(log);
    expect(reads).toBeGreaterThan(10);
  });

  it('reads from the start without an offset, and a short rest whole with no footer', async () => {
    const small: ToolMessage = { role: 'tool', toolCallId: 'call_small', toolName: 'cat', content: 'one\ntwo\nthree' };
    const reader = cutResultReader({ messages: () => transcript(small), maxTokens: 500, counter });
    expect((await reader.execute({ toolCallId: 'call_small' }, context)).content).toBe(
      '[call_small (cat), characters 0 to 13 of 13]\none\ntwo\nthree',
    );
    expect((await reader.execute({ toolCallId: 'call_small', offset: 4 }, context)).content).toBe(
      '[call_small (cat), characters 4 to 13 of 13]\ntwo\nthree',
    );
  });

  it('reads the text of a result with content parts as the packer joins it', async () => {
    const parts: ToolMessage = {
      role: 'tool',
      toolCallId: 'call_shot',
      toolName: 'screenshot',
      content: [
        { type: 'text', text: 'before' },
        { type: 'image', data: 'AAAA', mediaType: 'image/png' },
        { type: 'text', text: 'after' },
      ],
    };
    const reader = cutResultReader({ messages: () => transcript(parts), maxTokens: 500, counter });
    const read = parse((await reader.execute({ toolCallId: 'call_shot', offset: 0 }, context)).content);
    expect(read.text).toBe('before\n[image left out of this shortened tool result]\nafter');
  });

  it('answers an unknown id with an error naming it and the results that exist', async () => {
    const other: ToolMessage = { role: 'tool', toolCallId: 'call_other', toolName: 'ls', content: 'a\nb' };
    const reader = cutResultReader({ messages: () => transcript(big, other), maxTokens: 500, counter });
    const output = await reader.execute({ toolCallId: 'call_nope' }, context);
    expect(output.isError).toBe(true);
    expect(output.content).toContain('No tool result with toolCallId "call_nope"');
    expect(output.content).toContain(`call_other (ls, 3 characters), call_log (bash, ${log.length} characters)`);
  });

  it('answers an offset past the end with an error giving the range', async () => {
    const reader = cutResultReader({ messages: () => transcript(big), maxTokens: 500, counter });
    for (const offset of [log.length, log.length + 10]) {
      const output = await reader.execute({ toolCallId: 'call_log', offset }, context);
      expect(output.isError).toBe(true);
      expect(output.content).toBe(
        `offset ${offset} is past the end of the result of call_log (bash), which has ${log.length} characters: ` +
          `read from an offset of 0 to ${log.length - 1}.`,
      );
    }
  });

  it('offers the JSON Schema its zod schema converts to', () => {
    const reader = cutResultReader({ messages: () => [], maxTokens: 500, counter });
    expect(reader.spec.inputSchema).toBe(READER_INPUT_SCHEMA);
    expect(READER_INPUT_SCHEMA).toEqual(toolInputSchema(readerInput()));
  });

  it('rejects arguments that do not fit its schema as tool input', async () => {
    const reader = cutResultReader({ messages: () => transcript(big), maxTokens: 500, counter });
    await expect(reader.execute({ toolCallId: 'call_log', offset: -1 }, context)).rejects.toBeInstanceOf(ToolInputError);
    await expect(reader.execute({ offset: 3 }, context)).rejects.toThrow(/toolCallId/);
  });

  it('reads the transcript as it is at the time of the call', async () => {
    const messages = transcript();
    const reader = cutResultReader({ messages: () => messages, maxTokens: 500, counter });
    expect((await reader.execute({ toolCallId: 'call_log' }, context)).isError).toBe(true);
    messages.push(big);
    expect(parse((await reader.execute({ toolCallId: 'call_log' }, context)).content).from).toBe(0);
  });
});
