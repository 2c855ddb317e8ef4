import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from './agent.js';
import { DEFAULT_AGENT_TOOL_INPUT, DEFAULT_AGENT_TOOL_INPUT_SCHEMA } from './agent-tool.js';
import { toolInputSchema } from '../support/json-schema.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import { autoApprove } from '../loop/approvals.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import type { Message, ToolMessage } from '../message/message.js';
import { scriptedModel } from '../testing/scripted-model.js';
import type { AgentTool } from '../loop/tool.js';

const ran: string[] = [];
const grep: AgentTool = {
  spec: { name: 'grep', description: 'searches', inputSchema: { type: 'object' } },
  execute: async (args, context) => {
    ran.push(context.toolCallId);
    return { content: `match for ${JSON.stringify(args)}: ${'flaky timeout in a.test.ts line 3; '.repeat(30)}` };
  },
};
const deploy: AgentTool = { ...grep, spec: { ...grep.spec, name: 'deploy' }, needsApproval: true };

const results = (messages: readonly Message[]) => messages.filter((message): message is ToolMessage => message.role === 'tool');

function researcher(options: { store: MemorySessionStore; budget?: number; steps?: Parameters<typeof scriptedModel>[0]['steps'] }) {
  const model = scriptedModel({
    model: { provider: 'scripted', id: 'researcher' },
    steps: options.steps ?? [
      { reasoning: 'grep for it', toolCalls: [{ name: 'grep', args: { pattern: 'flaky' } }] },
      { text: 'The flaky test is a.test.ts.', usage: { inputTokens: 100, outputTokens: 10 } },
    ],
  });
  const agent = new Agent({ model, tools: [grep, deploy], store: options.store, context: { budget: options.budget ?? 50_000 } });
  return { model, agent };
}

describe('agent.asTool', () => {
  it('runs the sub-agent in its own session and answers with its final text, usage rolled up', async () => {
    const store = new MemorySessionStore();
    const sub = researcher({ store });
    const research = sub.agent.asTool({ name: 'research', description: 'Finds things in the repository.' });
    expect(research.spec.inputSchema).toMatchObject({ type: 'object', required: ['task'] });
    const parentModel = scriptedModel({
      steps: [
        { toolCalls: [{ id: 'r1', name: 'research', args: { task: 'Which test is flaky?' } }] },
        { text: 'a.test.ts is flaky.' },
      ],
    });
    const parent = await new Agent({ model: parentModel, tools: [research], store }).session({ id: 'main' });
    const result = await parent.send('Why is CI red?');

    expect(result.text).toBe('a.test.ts is flaky.');
    const [answer] = results(parent.messages);
    expect(answer).toMatchObject({ content: 'The flaky test is a.test.ts.', isError: false });
    expect(answer?.subSession).toMatchObject({ id: 'main.research.r1', calls: 2 });
    const child = await sub.agent.session({ id: 'main.research.r1', store });
    expect(child.messages[0]).toMatchObject({ role: 'user', content: 'Which test is flaky?', fromToolCall: { sessionId: 'main', callId: 'r1' } });
    expect(child.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // The parent never saw the sub-agent's steps, only its answer.
    expect(parentModel.requests[1]?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    // Totals: the parent's two calls plus the sub-agent's two.
    const own = parent.messages.filter((message) => message.role === 'assistant');
    expect(parent.totals.calls).toBe(4);
    expect(result.usage.calls).toBe(4);
    expect(parent.totals.inputTokens).toBe(
      own.reduce((sum, message) => sum + (message.usage?.inputTokens ?? 0), 0) + (answer?.subSession?.usage.inputTokens ?? 0),
    );
    expect(answer?.subSession?.usage.inputTokens).toBe(child.totals.inputTokens);
  });

  it('a sub-agent evicting its own history never touches the caller`s context', async () => {
    const store = new MemorySessionStore();
    let index = 0;
    // Each call of the shared sub-session is one episode with a bulky task (user messages are never shortened,
    // unlike tool results); a small budget makes it evict.
    const sub = researcher({
      store,
      budget: 300,
      steps: () => {
        index += 1;
        return index % 2 === 1
          ? { toolCalls: [{ id: `g${index}`, name: 'grep', args: { n: index } }] }
          : { text: `answer ${index / 2}` };
      },
    });
    const research = sub.agent.asTool({ name: 'research', description: 'Researches.', session: 'shared' });
    const parentModel = scriptedModel({
      steps: (_request, step) =>
        step % 2 === 0 ? { toolCalls: [{ id: `r${step}`, name: 'research', args: { task: `question ${step}: ${'details '.repeat(60)}` } }] } : { text: `done ${step}` },
    });
    const parent = await new Agent({ model: parentModel, tools: [research], store, context: { budget: 50_000 } }).session({ id: 'p' });
    for (const question of ['one', 'two', 'three', 'four']) await parent.send(question);

    const shared = await sub.agent.session({ id: 'p.research', store });
    expect(shared.messages.filter((message) => message.role === 'user')).toHaveLength(4);
    expect(shared.packState?.evictedEpisodes ?? 0).toBeGreaterThan(0);
    const lastSubRequest = sub.model.requests.at(-1)?.messages ?? [];
    expect(lastSubRequest.filter((message) => message.role === 'user').length).toBeLessThan(4);
    // The caller's context keeps every episode and every answer.
    expect(parent.packState?.evictedEpisodes ?? 0).toBe(0);
    const lastParentRequest = parentModel.requests.at(-1)?.messages ?? [];
    expect(lastParentRequest.filter((message) => message.role === 'user')).toHaveLength(4);
    expect(results(lastParentRequest).map((message) => message.content)).toEqual(['answer 1', 'answer 2', 'answer 3', 'answer 4']);
    expect(results(parent.messages).map((message) => message.subSession?.id)).toEqual(Array(4).fill('p.research'));
  });

  it('surfaces the sub-agent`s approvals in the caller`s pause, and hands the decision down', async () => {
    const store = new MemorySessionStore();
    ran.length = 0;
    const sub = researcher({
      store,
      steps: [{ reasoning: 'ship', toolCalls: [{ id: 'd1', name: 'deploy', args: { env: 'prod' } }] }, { text: 'deployed' }],
    });
    const release = sub.agent.asTool({ name: 'release', description: 'Releases.' });
    const parentModel = scriptedModel({
      steps: [{ toolCalls: [{ id: 'c1', name: 'release', args: { task: 'ship it' } }] }, { text: 'released' }],
    });
    const parentAgent = new Agent({ model: parentModel, tools: [release], store });
    const paused = await (await parentAgent.session({ id: 'ops' })).send('release');
    expect(paused.status).toBe('paused');
    expect(paused.pendingApprovals).toEqual([{ callId: 'd1', toolName: 'deploy', args: { env: 'prod' }, sessionId: 'ops.release.c1' }]);
    expect(ran).toEqual([]);
    expect(results((await store.load('ops'))?.messages ?? [])).toEqual([]);

    // Reopened (another process, same stores): the nested request is listed from the sub-session.
    const reopened = await parentAgent.session({ id: 'ops' });
    expect(reopened.pendingApprovals).toEqual(paused.pendingApprovals);
    await reopened.approve('d1', { note: 'go ahead' });
    const done = await reopened.resume();
    expect(done).toMatchObject({ status: 'finished', text: 'released' });
    expect(ran).toEqual(['d1']);
    const child = await sub.agent.session({ id: 'ops.release.c1', store });
    expect(results(child.messages)[0]?.approval).toEqual({ decision: 'approved', by: 'person', note: 'go ahead' });
    expect(results(reopened.messages)[0]).toMatchObject({ content: 'deployed', subSession: { id: 'ops.release.c1' } });
    expect((await store.load('ops'))?.approvals).toBeUndefined();
  });

  it('applies the caller`s approval policy when the sub-agent has none', async () => {
    const store = new MemorySessionStore();
    ran.length = 0;
    const sub = researcher({ store, steps: [{ toolCalls: [{ id: 'd2', name: 'deploy', args: {} }] }, { text: 'deployed' }] });
    const parentModel = scriptedModel({
      steps: [{ toolCalls: [{ id: 'c', name: 'release', args: { task: 'ship' } }] }, { text: 'ok' }],
    });
    const tools = [sub.agent.asTool({ name: 'release', description: 'Releases.' })];
    const result = await (await new Agent({ model: parentModel, tools, toolCalls: { approvalPolicy: autoApprove } }).session()).send('go');
    expect(result.status).toBe('finished');
    expect(ran).toEqual(['d2']);
  });

  it('passes the caller`s abort down and leaves the sub-session consistent', async () => {
    const store = new MemorySessionStore();
    const sub = researcher({ store, steps: [{ text: 'too late', delayMs: 5_000 }] });
    const parentModel = scriptedModel({ steps: [{ toolCalls: [{ id: 'c', name: 'research', args: { task: 'slow' } }] }] });
    const tools = [sub.agent.asTool({ name: 'research', description: 'Researches.' })];
    const parent = await new Agent({ model: parentModel, tools, store }).session({ id: 'a' });
    const controller = new AbortController();
    const started = Date.now();
    const outcome = parent.send('go', {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'tool-call') setTimeout(() => controller.abort(), 20);
      },
    });
    await expect(outcome).rejects.toBeInstanceOf(RunAbortedError);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(results(parent.messages)[0]?.content).toContain('aborted');
    const child = await sub.agent.session({ id: 'a.research.c', store });
    expect(child.messages.map((message) => message.role)).toEqual(['user']);
  });

  it('offers the default input as the JSON Schema its zod schema converts to, and checks calls against it', async () => {
    const sub = researcher({ store: new MemorySessionStore(), steps: [{ text: 'done' }] });
    const tool = sub.agent.asTool({ name: 'research', description: 'Researches.' });
    expect(tool.spec.inputSchema).toBe(DEFAULT_AGENT_TOOL_INPUT_SCHEMA);
    expect(DEFAULT_AGENT_TOOL_INPUT_SCHEMA).toEqual(toolInputSchema(DEFAULT_AGENT_TOOL_INPUT));
    const context = { signal: new AbortController().signal, toolCallId: 'd', sessionId: 's' };
    await expect(tool.execute({ task: 7 }, context)).rejects.toMatchObject({
      code: 'invalid_tool_input',
      issues: [{ path: 'task', message: 'expected string, got number' }],
    });
    await expect(tool.execute({}, context)).rejects.toMatchObject({ issues: [{ path: 'task', message: 'missing (expected string)' }] });
    expect(await tool.execute({ task: 'look', extra: 1 }, context)).toMatchObject({ content: 'done' });
  });

  it('exports the default input as a zod schema, built when first used', () => {
    expect(DEFAULT_AGENT_TOOL_INPUT).toBeInstanceOf(z.ZodObject);
    expect(DEFAULT_AGENT_TOOL_INPUT.safeParse({ task: 'go', extra: 1 })).toEqual({ success: true, data: { task: 'go' } });
    expect(DEFAULT_AGENT_TOOL_INPUT.safeParse({ task: 1 }).success).toBe(false);
    expect(Object.keys(DEFAULT_AGENT_TOOL_INPUT.shape)).toEqual(['task']);
    const extended = DEFAULT_AGENT_TOOL_INPUT.extend({ deadline: z.string() });
    expect(extended.parse({ task: 'go', deadline: 'friday' })).toEqual({ task: 'go', deadline: 'friday' });
    expect(z.object({ inner: DEFAULT_AGENT_TOOL_INPUT }).parse({ inner: { task: 'go' } })).toEqual({ inner: { task: 'go' } });
    expect(DEFAULT_AGENT_TOOL_INPUT['~standard'].vendor).toBe('zod');
  });

  it('answers invalid input with an error the model reads, and takes a custom input and prompt', async () => {
    const store = new MemorySessionStore();
    const sub = researcher({ store, steps: [{ text: 'checked run 7' }] });
    const tool = sub.agent.asTool({
      name: 'check_run',
      description: 'Checks a CI run.',
      input: z.object({ run: z.number().int() }),
      prompt: ({ run }) => `Check CI run ${run}.`,
    });
    const context = { signal: new AbortController().signal, toolCallId: 'k', sessionId: 's' };
    await expect(tool.execute({ run: 'seven' }, context)).rejects.toMatchObject({ code: 'invalid_tool_input' });
    expect(await tool.execute({ run: 7 }, context)).toMatchObject({ content: 'checked run 7' });
    expect(sub.model.requests[0]?.messages[0]).toMatchObject({ content: 'Check CI run 7.' });
    // Run again for the same call (the caller crashed before saving the result): the answer, no new model call.
    expect(await tool.execute({ run: 7 }, context)).toMatchObject({ content: 'checked run 7', subSession: { id: 's.check_run.k' } });
    expect(sub.model.requests).toHaveLength(1);
  });
});
