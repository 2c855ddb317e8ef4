// defineTool with each Standard Schema library a user may bring: zod 4, zod 3 (the
// `zod3` alias of zod 3.25, its classic API and its bundled `zod/v4`), valibot and
// arktype. Each must give the model an object JSON Schema with the field's
// description, validate with its own library, type `execute`'s input, and report a
// bad field by its path.
import { Agent, InvalidArgumentError, ToolInputError, type ToolContext } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z as z4 } from 'zod';
import { z as z3 } from 'zod3';
import { z as z3v4 } from 'zod3/v4';
import { defineTool } from './define-tool.js';

const context: ToolContext = { signal: new AbortController().signal, toolCallId: 'call_1' };

const schemas = {
  'zod 4': z4.object({ path: z4.string().describe('File to read'), lines: z4.number().int().optional() }),
  'zod 3': z3.object({ path: z3.string().describe('File to read'), lines: z3.number().int().optional() }),
  'zod 3.25 zod/v4': z3v4.object({ path: z3v4.string().describe('File to read'), lines: z3v4.number().int().optional() }),
  valibot: toStandardJsonSchema(
    v.object({
      path: v.pipe(v.string(), v.description('File to read')),
      lines: v.optional(v.pipe(v.number(), v.integer())),
    }),
  ),
  arktype: type({ path: type('string').describe('File to read'), 'lines?': 'number.integer' }),
};

describe.each(Object.entries(schemas))('defineTool with %s', (_library, input) => {
  const tool = defineTool({
    name: 'read_file',
    description: 'Reads a file.',
    input,
    execute: (args) => `read ${args.path} (${String(args.lines ?? 'all')} lines)`,
  });

  it('sends an object JSON Schema with the field, its description and what is required', () => {
    const schema = tool.spec.inputSchema as { type: string; properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(schema.type).toBe('object');
    expect(schema.properties.path).toMatchObject({ type: 'string', description: 'File to read' });
    expect(schema.properties.lines?.type).toMatch(/^(integer|number)$/);
    expect(schema.required).toEqual(['path']);
    expect(schema).not.toHaveProperty('$schema');
  });

  it('runs on valid arguments with the validated input', async () => {
    await expect(tool.execute({ path: 'a.ts', lines: 3 }, context)).resolves.toEqual({
      content: 'read a.ts (3 lines)',
      isError: false,
    });
  });

  it('refuses a bad field with a ToolInputError naming its path', async () => {
    const error = await tool.execute({ path: 7 }, context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolInputError);
    expect((error as ToolInputError).issues.map((issue) => issue.path)).toEqual(['path']);
    const missing = await tool.execute({}, context).catch((caught: unknown) => caught);
    expect((missing as ToolInputError).issues[0]?.path).toBe('path');
  });
});

describe('defineTool types', () => {
  it("infers execute's input from each library's schema", () => {
    defineTool({
      name: 'typed',
      description: 'd',
      input: schemas.valibot,
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ path: string; lines?: number | undefined }>();
        return '';
      },
    });
    defineTool({
      name: 'typed',
      description: 'd',
      input: schemas['zod 3'],
      execute: (args) => {
        expectTypeOf(args.path).toEqualTypeOf<string>();
        expectTypeOf(args.lines).toEqualTypeOf<number | undefined>();
        return '';
      },
    });
    defineTool({
      name: 'typed',
      description: 'd',
      input: schemas.arktype,
      execute: (args) => {
        expectTypeOf(args.path).toEqualTypeOf<string>();
        return '';
      },
    });
  });
});

describe('defineTool refuses what it cannot send', () => {
  const base = { name: 't', description: 'd', execute: () => '' };

  it('a valibot schema without a JSON Schema converter names the wrapper to use', () => {
    expect(() => defineTool({ ...base, input: v.object({ a: v.string() }) })).toThrow(
      /Tool t: input schema \(valibot\) offers no JSON Schema conversion.*toStandardJsonSchema/,
    );
  });

  it('a value that is not a Standard Schema', () => {
    expect(() => defineTool({ ...base, input: { parse: () => ({}) } as never })).toThrow(InvalidArgumentError);
    expect(() => defineTool({ ...base, input: { parse: () => ({}) } as never })).toThrow(/is not a Standard Schema/);
  });

  it('a schema whose root is not an object, from any library', () => {
    expect(() => defineTool({ ...base, input: type('string') })).toThrow(/must describe an object/);
    expect(() => defineTool({ ...base, input: z3.string() })).toThrow(/must describe an object/);
  });

  it('inputJsonSchema: a library with no converter still validates every call', async () => {
    const tool = defineTool({
      ...base,
      input: v.object({ a: v.string() }),
      inputJsonSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      execute: ({ a }) => a.toUpperCase(),
    });
    expect(tool.spec.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
    await expect(tool.execute({ a: 'x' }, context)).resolves.toMatchObject({ content: 'X' });
    await expect(tool.execute({ a: 1 }, context)).rejects.toBeInstanceOf(ToolInputError);
    expect(() => defineTool({ ...base, input: v.object({}), inputJsonSchema: { type: 'string' } })).toThrow(
      /inputJsonSchema must be a JSON Schema with type "object"/,
    );
  });
});

describe('an agent with Standard Schema tools and answers', () => {
  it('runs a valibot tool and returns an arktype-checked structured answer', async () => {
    const seen: string[] = [];
    const tool = defineTool({
      name: 'lookup',
      description: 'Looks up a user.',
      input: schemas.valibot,
      execute: ({ path }) => {
        seen.push(path);
        return 'found';
      },
    });
    const Answer = type({ verdict: "'ok' | 'bad'", 'count?': 'number' });
    const model = scriptedModel({
      steps: [
        { toolCalls: [{ name: 'lookup', args: { path: 'x.ts' } }] },
        { output: { verdict: 'maybe' } },
        { output: { verdict: 'ok', count: 2 } },
      ],
    });
    const session = await new Agent({ model, tools: [tool] }).session();
    const result = await session.send('go', { output: Answer });
    expect(seen).toEqual(['x.ts']);
    expect(result.status === 'finished' && result.output).toEqual({ verdict: 'ok', count: 2 });
    if (result.status === 'finished') expectTypeOf(result.output.verdict).toEqualTypeOf<'ok' | 'bad'>();
    // The wrong answer went back to the model as arktype's own message, on its field.
    const toolResults = session.messages.filter((message) => message.role === 'tool');
    expect(toolResults.find((message) => message.isError)?.content).toContain(
      'verdict: verdict must be "bad" or "ok" (was "maybe")',
    );
  });
});
