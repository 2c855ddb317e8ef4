import { EpisodicError, type ToolContext, type ToolOutput } from '@episodic/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type ToolDefinition } from './define-tool.js';
import { ToolInputError } from './tool-errors.js';

const context = (): ToolContext => ({ signal: new AbortController().signal, toolCallId: 'call_1' });

/** Runs a tool expecting a ToolInputError and returns it. */
async function inputError(promise: Promise<ToolOutput>): Promise<ToolInputError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolInputError);
  return error as ToolInputError;
}

describe('defineTool types', () => {
  it('infers the execute input from the zod schema', () => {
    defineTool({
      name: 'read',
      description: 'Reads.',
      input: z.object({ path: z.string(), line: z.int().optional(), mode: z.enum(['a', 'b']).default('a') }),
      execute: async ({ path, line, mode }) => {
        expectTypeOf(path).toEqualTypeOf<string>();
        expectTypeOf(line).toEqualTypeOf<number | undefined>();
        // Defaults are applied before execute runs, so the output type has no undefined.
        expectTypeOf(mode).toEqualTypeOf<'a' | 'b'>();
        return path;
      },
    });
  });

  it('passes the tool context and exposes the schema it was built from', () => {
    const input = z.object({ n: z.number() });
    const tool = defineTool({
      name: 'count',
      description: 'Counts.',
      input,
      execute: (value, toolContext) => {
        expectTypeOf(toolContext).toEqualTypeOf<ToolContext>();
        return String(value.n);
      },
    });
    expectTypeOf(tool.input).toEqualTypeOf<typeof input>();
    expectTypeOf(tool.execute).parameter(0).toEqualTypeOf<unknown>();
  });
});

describe('defineTool', () => {
  const echo = defineTool({
    name: 'read_file',
    description: 'Reads a file.',
    input: z.object({
      path: z.string().describe('File path'),
      startLine: z.int().min(1).optional(),
      flags: z.array(z.enum(['x', 'y'])).optional(),
    }),
    timeoutMs: 5000,
    execute: async ({ path, startLine }) => `${path}:${startLine ?? 1}`,
  });

  it('builds a spec with the JSON Schema of the input', () => {
    expect(echo.spec).toEqual({
      name: 'read_file',
      description: 'Reads a file.',
      inputSchema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path' },
          startLine: { type: 'integer', minimum: 1 },
          flags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
        },
        required: ['path'],
      },
    });
    expect(echo.timeoutMs).toBe(5000);
  });

  it('runs execute on valid arguments and wraps a string result', async () => {
    await expect(echo.execute({ path: 'a.ts', startLine: 4 }, context())).resolves.toEqual({
      content: 'a.ts:4',
      isError: false,
    });
  });

  it('names each bad field in a short message', async () => {
    const error = await inputError(echo.execute({ path: 42, startLine: 0, flags: ['z'] }, context()));
    expect(error.code).toBe('invalid_tool_input');
    expect(EpisodicError.isInstance(error)).toBe(true);
    expect(error.issues).toEqual([
      { path: 'path', message: 'expected string, got number' },
      { path: 'startLine', message: expect.stringMatching(/>=\s?1/) },
      { path: 'flags[0]', message: 'expected one of "x", "y", got "z"' },
    ]);
    expect(error.message).toMatch(/^Invalid arguments for tool read_file: path: expected string, got number; /);
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it('reports missing fields, wrong argument types and unknown fields of strict objects', async () => {
    const missing = await inputError(echo.execute({}, context()));
    expect(missing.issues).toEqual([{ path: 'path', message: 'missing (expected string)' }]);

    const notAnObject = await inputError(echo.execute('a.ts', context()));
    expect(notAnObject.issues).toEqual([{ path: '', message: 'expected object, got string' }]);

    const strict = defineTool({
      name: 'strict',
      description: 'Strict.',
      input: z.strictObject({ a: z.string() }),
      execute: ({ a }) => a,
    });
    const unknown = await inputError(strict.execute({ a: 'x', b: 1, c: 2 }, context()));
    expect(unknown.issues).toEqual([{ path: '', message: 'unknown fields b, c' }]);
  });

  it('treats absent arguments as an empty object', async () => {
    const ping = defineTool({ name: 'ping', description: 'Ping.', input: z.object({}), execute: () => 'pong' });
    await expect(ping.execute(undefined, context())).resolves.toEqual({ content: 'pong', isError: false });
    await expect(ping.execute(null, context())).resolves.toEqual({ content: 'pong', isError: false });
  });

  it('passes through a result flagged as an error', async () => {
    const failing = defineTool({
      name: 'failing',
      description: 'Fails softly.',
      input: z.object({}),
      execute: async () => ({ content: 'nothing found', isError: true }),
    });
    await expect(failing.execute({}, context())).resolves.toEqual({ content: 'nothing found', isError: true });
  });

  it('lets errors thrown by execute reach the caller (the executor reports them)', async () => {
    const boom = defineTool({
      name: 'boom',
      description: 'Throws.',
      input: z.object({}),
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    await expect(boom.execute({}, context())).rejects.toThrow('disk on fire');
  });

  it('reads strict-mode and Gemini wire shapes back: null for optional, entry lists for maps, numeric strings', async () => {
    const configure = defineTool({
      name: 'configure',
      description: 'Configures.',
      input: z.object({
        limit: z.int().default(10),
        note: z.string().nullable().optional(),
        env: z.record(z.string(), z.string()),
        level: z.union([z.literal(1), z.literal(2)]),
      }),
      execute: (input) => JSON.stringify(input),
    });
    const output = await configure.execute(
      { limit: null, note: null, env: [{ key: 'CI', value: 'true' }], level: '2' },
      context(),
    );
    // `note` accepts null, so its null is kept; `limit` does not, so it falls back to the default.
    expect(JSON.parse(output.content)).toEqual({ limit: 10, note: null, env: { CI: 'true' }, level: 2 });
  });

  it('never lets a "__proto__" key in the arguments supply fields through the prototype', async () => {
    const open = defineTool({
      name: 'open_file',
      description: 'Opens.',
      input: z.object({ path: z.string(), mode: z.string().optional() }),
      execute: (input) => JSON.stringify({ path: input.path, mode: input.mode ?? null }),
    });
    // JSON.parse makes "__proto__" an own key; copying it by assignment would set the prototype.
    const smuggled = JSON.parse('{"path": "a.txt", "__proto__": {"mode": "w"}}') as unknown;
    expect(JSON.parse((await open.execute(smuggled, context())).content)).toEqual({ path: 'a.txt', mode: null });
    const onlyProto = JSON.parse('{"__proto__": {"path": "b.txt"}}') as unknown;
    await expect(open.execute(onlyProto, context())).rejects.toThrow(/path: missing/);
  });

  it('rejects names providers refuse, bad timeouts and inputs that are not objects', () => {
    const base = { description: 'x', input: z.object({}), execute: () => 'x' };
    expect(() => defineTool({ ...base, name: 'read file' })).toThrow(/not accepted by every provider/);
    expect(() => defineTool({ ...base, name: '9lives' })).toThrow(/starting with a letter/);
    expect(() => defineTool({ ...base, name: 'a'.repeat(65) })).toThrow(/1 to 64/);
    expect(() => defineTool({ ...base, name: 'ok', timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => defineTool({ ...base, name: 'ok', input: z.string() })).toThrow(/must describe an object/);
    expect(() => defineTool({ ...base, name: 'ok', input: z.object({ when: z.date() }) })).toThrow(
      /no JSON Schema form/,
    );
  });
});

describe('tool input JSON Schema', () => {
  it('drops zod noise (safe-integer bounds, format regexes) but never touches property names', () => {
    const tool = defineTool({
      name: 'odd_names',
      description: 'Fields named like keywords.',
      input: z.object({
        minimum: z.int(),
        pattern: z.string().regex(/^a+$/),
        format: z.string(),
        default: z.object({ count: z.int().min(2) }),
        mail: z.email(),
      }),
      execute: () => 'ok',
    });
    expect(tool.spec.inputSchema.properties).toEqual({
      minimum: { type: 'integer' },
      pattern: { type: 'string', pattern: '^a+$' },
      format: { type: 'string' },
      default: { type: 'object', properties: { count: { type: 'integer', minimum: 2 } }, required: ['count'] },
      mail: { type: 'string', format: 'email' },
    });
    expect(tool.spec.inputSchema).not.toHaveProperty('$schema');
  });
});

describe('defineTool needsApproval', () => {
  const approval = { toolCallId: 'call_1', sessionId: 's' };
  const input = z.object({ env: z.enum(['staging', 'production']), dryRun: z.boolean().default(false) });
  const deploy = (needsApproval: ToolDefinition<typeof input>['needsApproval']) =>
    defineTool({ name: 'deploy', description: 'Deploys a service.', input, execute: () => 'deployed', needsApproval });

  it('passes a boolean through and leaves it out when not given', () => {
    expect(deploy(true).needsApproval).toBe(true);
    expect('needsApproval' in deploy(undefined)).toBe(false);
  });

  it('asks the predicate with validated, typed input, and never for input that will not run', async () => {
    const seen: unknown[] = [];
    const tool = deploy((args, context) => {
      expectTypeOf(args.env).toEqualTypeOf<'staging' | 'production'>();
      seen.push([args, context.sessionId]);
      return args.env === 'production' && !args.dryRun;
    });
    const asks = tool.needsApproval as (args: unknown, context: typeof approval) => Promise<boolean>;
    expect(await asks({ env: 'production' }, approval)).toBe(true);
    expect(await asks({ env: 'staging' }, approval)).toBe(false);
    expect(await asks({ env: 'moon' }, approval)).toBe(false);
    expect(seen).toEqual([
      [{ env: 'production', dryRun: false }, 's'],
      [{ env: 'staging', dryRun: false }, 's'],
    ]);
  });
});
