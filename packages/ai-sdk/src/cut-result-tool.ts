/**
 * The reader of cut tool results as an AI SDK tool. The packer shortens a tool result
 * over its cap to head, marker and tail; when the loop has this tool, the marker names
 * it with the result's `toolCallId` and the offset of the cut characters, and a call
 * returns the original text from there (the same reader an Episodic `Agent` offers,
 * reading the conversation as the latest pack saw it).
 */
import { type Tool, jsonSchema, tool } from 'ai';
import { CUT_RESULT_READER, type Message, type TokenCounter } from '@episodic/core';
import type { PackTuning } from '@episodic/core/packing';
import { cutResultReader, readerCap } from '@episodic/core/internal';

/** The reader's name, as the packer's markers give it. */
export const READ_CUT_RESULT = CUT_RESULT_READER;

/** The reader's input: the result's call id and the first character to read. */
export interface ReadCutResultInput {
  toolCallId: string;
  offset?: number;
}

/** What the latest pack read from: the conversation, its budget and tuning, and its counter. */
interface ReaderContext {
  messages: readonly Message[];
  budget: number;
  pack: PackTuning;
  counter: TokenCounter;
}

/** One conversation's reader: configured by each pack, offered from the first cut on. */
export class CutResultTool {
  /** True once a pack of this conversation cut a tool result: from then on the model sees the tool. */
  offered = false;
  private context: ReaderContext | undefined;

  /** What the next read reads. */
  configure(context: ReaderContext): void {
    this.context = context;
  }

  /** A new conversation: nothing cut yet. */
  reset(): void {
    this.offered = false;
    this.context = undefined;
  }

  /** The AI SDK tool; its errors (an unknown call id, an offset past the end) go to the model as tool errors. */
  tool(): Tool<ReadCutResultInput, string> {
    return tool({
      description: 'Reads what was cut from the middle of a tool result, from the offset (in characters) its cut marker gives.',
      inputSchema: jsonSchema<ReadCutResultInput>({
        type: 'object',
        properties: { toolCallId: { type: 'string', minLength: 1 }, offset: { type: 'integer', minimum: 0 } },
        required: ['toolCallId'],
        additionalProperties: false,
      }),
      execute: async (input) => {
        const context = this.context;
        if (!context) throw new Error('read_cut_result: no tool result was cut in this conversation yet.');
        const maxTokens = readerCap(context.budget, context.pack);
        const reader = cutResultReader({ messages: () => context.messages, maxTokens, counter: context.counter });
        const output = await reader.execute(input, undefined as never);
        const { content, isError } = typeof output === 'string' ? { content: output, isError: false } : output;
        if (isError) throw new Error(content);
        return content;
      },
    });
  }
}
