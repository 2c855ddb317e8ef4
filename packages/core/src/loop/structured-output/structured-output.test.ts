import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../agent/agent.js';
import { maxSteps } from '../stop-conditions.js';
import { StructuredOutputError } from './structured-output.js';
import type { Message, ToolMessage } from '../../message/message.js';
import { type ScriptStep, scriptedModel } from '../../testing/scripted-model.js';
import type { AgentTool } from '../tool.js';

const Verdict = z.object({
  verdict: z.enum(['flaky', 'broken']).describe('What is wrong with the test'),
  file: z.string(),
  line: z.number().int().optional(),
});

const readLog: AgentTool = {
  spec: { name: 'read_log', description: 'reads the CI log', inputSchema: { type: 'object' } },
  execute: async () => ({ content: 'a.test.ts:3 timed out after 5000 ms (passes on retry)' }),
};

function agentWith(steps: readonly ScriptStep[], mode?: 'native' | 'tool') {
  const model = scriptedModel({ steps, ...(mode === 'native' ? { profile: { structuredOutput: 'native' } } : {}) });
  return { model, agent: new Agent({ model, tools: [readLog] }) };
}

const lastTool = (messages: readonly Message[]) =>
  messages.filter((message): message is ToolMessage => message.role === 'tool').at(-1);

describe('structured final answers', () => {
  it('tool mode: the model calls final_answer, the result is typed and the episode is finished', async () => {
    const { model, agent } = agentWith([
      { toolCalls: [{ name: 'read_log' }] },
      { reasoning: 'It passes on retry.', output: { verdict: 'flaky', file: 'a.test.ts', line: 3 } },
    ]);
    const session = await agent.session();
    const result = await session.send('Why is CI red?', { output: Verdict });
    expect(result.status).toBe('finished');
    if (result.status !== 'finished') return;
    expectTypeOf(result.output).toEqualTypeOf<{ verdict: 'flaky' | 'broken'; file: string; line?: number | undefined }>();
    expect(result.output).toEqual({ verdict: 'flaky', file: 'a.test.ts', line: 3 });
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['read_log', 'final_answer', 'read_cut_result']);
    expect(model.requests[0]?.tools?.[1]?.inputSchema).toMatchObject({ required: ['verdict', 'file'] });
    expect(model.requests[0]?.output).toBeUndefined();
    expect(lastTool(session.messages)).toMatchObject({ toolName: 'final_answer', finalAnswer: true, isError: false });
    expect(session.unfinished).toBe(false);
    // Resuming a finished episode gives the same answer without calling the model.
    const again = await session.resume({ output: Verdict });
    expect(again.status === 'finished' && again.output).toEqual({ verdict: 'flaky', file: 'a.test.ts', line: 3 });
    expect(model.requests).toHaveLength(2);
  });

  it('native mode: the schema goes out as the request`s output format and the answer is the JSON text', async () => {
    const { model, agent } = agentWith([{ output: { verdict: 'broken', file: 'b.ts' } }], 'native');
    const result = await (await agent.session()).send('Why?', { output: Verdict });
    expect(result.status === 'finished' && result.output).toEqual({ verdict: 'broken', file: 'b.ts' });
    expect(result.text).toBe('{"verdict":"broken","file":"b.ts"}');
    expect(model.requests[0]?.output).toMatchObject({ name: 'final_answer', schema: { type: 'object' } });
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['read_log', 'read_cut_result']);
  });

  it('native mode: a failed check is fed back inside the episode and the next answer is accepted', async () => {
    const { model, agent } = agentWith(
      [
        { reasoning: 'first try', output: { verdict: 'maybe', file: 'a.ts' } },
        { output: '```json\n{"verdict":"flaky","file":"a.ts"}\n```' },
      ],
      'native',
    );
    const session = await agent.session();
    const result = await session.send('Why?', { output: Verdict });
    expect(result.status === 'finished' && result.output).toEqual({ verdict: 'flaky', file: 'a.ts' });
    const feedback = model.requests[1]?.messages.at(-1);
    expect(feedback).toMatchObject({ role: 'user', injected: true });
    expect(feedback?.content).toContain('verdict: expected one of "flaky", "broken", got "maybe"');
    expect(result.steps).toBe(2);
  });

  // Transcript v1.1's `injected` marker: the feedback is not a person's message, so the episode goes on.
  it('native mode: the feedback does not start an episode, so the rejected answer keeps its reasoning', async () => {
    const { model, agent } = agentWith([{ reasoning: 'first try', output: { verdict: 'maybe', file: 'a.ts' } }, { output: { verdict: 'flaky', file: 'a.ts' } }], 'native');
    await (await agent.session()).send('Why?', { output: Verdict });
    expect(model.requests[1]?.messages.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'reasoning' }, {}] });
  });

  it('tool mode: invalid final_answer arguments come back as an error result, then the answer is accepted', async () => {
    const { model, agent } = agentWith([{ output: { verdict: 'flaky' } }, { output: { verdict: 'flaky', file: 'c.ts' } }]);
    const result = await (await agent.session()).send('Why?', { output: Verdict });
    expect(result.status === 'finished' && result.output).toEqual({ verdict: 'flaky', file: 'c.ts' });
    const rejected = model.requests[1]?.messages.at(-1) as ToolMessage;
    expect(rejected).toMatchObject({ role: 'tool', toolName: 'final_answer', isError: true });
    expect(rejected.content).toContain('file: missing (expected string)');
  });

  it('accepts a valid JSON text answer in tool mode too', async () => {
    const { agent } = agentWith([{ text: '{"verdict":"broken","file":"d.ts"}' }]);
    const result = await (await agent.session()).send('Why?', { output: Verdict });
    expect(result.status === 'finished' && result.output).toEqual({ verdict: 'broken', file: 'd.ts' });
  });

  it('fails with a typed error once the retries are spent', async () => {
    const { model, agent } = agentWith([{ text: 'It is flaky.' }, { text: 'Flaky, really.' }], 'native');
    const failure = await (await agent.session())
      .send('Why?', { output: Verdict, outputRetries: 1 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StructuredOutputError);
    expect(failure).toMatchObject({ code: 'invalid_output', attempts: 2 });
    expect((failure as Error).message).toMatch(/not valid JSON/);
    expect(model.requests).toHaveLength(2);
  });

  it('says so when a stop condition ends the episode before an answer', async () => {
    const model = scriptedModel({ steps: [{ toolCalls: [{ name: 'read_log' }] }] });
    const agent = new Agent({ model, tools: [readLog], stopWhen: maxSteps(1) });
    await expect((await agent.session()).send('Why?', { output: Verdict })).rejects.toMatchObject({ code: 'missing_output' });
  });

  it('refuses schemas it cannot ask for, and a tool already named final_answer', async () => {
    const { agent } = agentWith([]);
    const session = await agent.session();
    await expect(session.send('x', { output: z.array(z.string()) })).rejects.toThrow(/Output schema must describe an object/);
    const clash = new Agent({ model: scriptedModel({ steps: [] }), tools: [{ ...readLog, spec: { ...readLog.spec, name: 'final_answer' } }] });
    await expect((await clash.session()).send('x', { output: Verdict })).rejects.toThrow(/tool named "final_answer"/);
    expect(session.messages).toEqual([]);
  });
});
