import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { SessionBusyError } from '../errors/session-errors.js';
import type { AgentEvent } from './agent-events.js';
import { autoApprove, autoReject } from './approvals.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import type { Message, ToolMessage } from '../message/message.js';
import { type ScriptStep, scriptedModel } from '../testing/scripted-model.js';
import type { AgentTool, NeedsApproval } from './tool.js';

function tools(ran: string[], needsApproval: NeedsApproval = true): AgentTool[] {
  const tool = (name: string, approval: NeedsApproval | undefined): AgentTool => ({
    spec: { name, description: name, inputSchema: { type: 'object' } },
    ...(approval === undefined ? {} : { needsApproval: approval }),
    execute: async (args, context) => {
      ran.push(context.toolCallId);
      return { content: `${name} ran with ${JSON.stringify(args)}` };
    },
  });
  return [tool('apply_patch', needsApproval), tool('read_log', undefined)];
}

const patchStep: ScriptStep = {
  reasoning: 'The test fails on line 3; patch it.',
  signature: 'sig-1',
  toolCalls: [{ id: 'p1', name: 'apply_patch', args: { patch: '-a\n+b' } }],
};

function toolResults(messages: readonly Message[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => message.role === 'tool');
}

describe('tool approvals', () => {
  it('a needsApproval predicate that never settles asks (after the tool timeout) instead of hanging the episode', async () => {
    const ran: string[] = [];
    const never: AgentTool = {
      spec: { name: 'apply_patch', description: 'patch', inputSchema: { type: 'object' } },
      timeoutMs: 50,
      needsApproval: () => new Promise<boolean>(() => {}),
      execute: async (_args, context) => {
        ran.push(context.toolCallId);
        return { content: 'patched' };
      },
    };
    const model = scriptedModel({ steps: [patchStep, { text: 'patched' }] });
    const session = await new Agent({ model, tools: [never] }).session({ id: 'hang' });
    const paused = await session.send('fix CI');
    expect(paused.status).toBe('paused');
    expect(paused.pendingApprovals.map((request) => request.callId)).toEqual(['p1']);
    expect(ran).toEqual([]);
  }, 5_000);

  it('pauses before a call that needs approval, then runs it once approved, reasoning intact', async () => {
    const ran: string[] = [];
    const model = scriptedModel({ steps: [patchStep, { text: 'patched' }] });
    const session = await new Agent({ model, tools: tools(ran) }).session({ id: 'fix' });
    const events: AgentEvent[] = [];
    const paused = await session.send('fix CI', { onEvent: (event) => events.push(event) });

    expect(paused.status).toBe('paused');
    expect(paused.pendingApprovals).toEqual([
      { callId: 'p1', toolName: 'apply_patch', args: { patch: '-a\n+b' }, sessionId: 'fix' },
    ]);
    expect(ran).toEqual([]);
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant' });
    const types = events.map((event) => event.type).filter((type) => type !== 'reasoning-stats');
    expect(types.slice(-3)).toEqual(['tool-call', 'approval-requested', 'episode-finish']);
    expect(events.at(-1)).toMatchObject({ type: 'episode-finish', reason: 'paused' });
    expect(session.pendingApprovals).toEqual(paused.pendingApprovals);
    expect(session.unfinished).toBe(true);

    await session.approve('p1', { note: 'only this once' });
    expect(session.pendingApprovals).toEqual([]);
    const finished = await session.resume();
    expect(finished).toMatchObject({ status: 'finished', reason: 'done', text: 'patched', pendingApprovals: [] });
    expect(ran).toEqual(['p1']);
    const [result] = toolResults(session.messages);
    expect(result).toMatchObject({
      isError: false,
      approval: { decision: 'approved', by: 'person', note: 'only this once' },
    });
    expect(result?.content).toContain('only this once');
    // The resumed call is the same episode: the paused step's reasoning goes back.
    const resumedRequest = model.requests[1]?.messages ?? [];
    expect(resumedRequest.filter((message) => message.role === 'user')).toHaveLength(1);
    expect(resumedRequest[1]).toMatchObject({ content: [{ type: 'reasoning', signature: 'sig-1' }, {}] });
  });

  it('answers a rejected call with an error result the model reads', async () => {
    const ran: string[] = [];
    const model = scriptedModel({ steps: [patchStep, { text: 'I will not patch, then.' }] });
    const session = await new Agent({ model, tools: tools(ran) }).session();
    await session.send('fix CI');
    await session.reject('p1', { reason: 'the patch touches the lockfile' });
    await session.resume();
    expect(ran).toEqual([]);
    const sent = model.requests[1]?.messages.at(-1) as ToolMessage;
    expect(sent).toMatchObject({ role: 'tool', toolCallId: 'p1', isError: true });
    expect(sent.content).toBe(
      'Tool "apply_patch" was not run: the user rejected this call. Reason: the patch touches the lockfile',
    );
    expect(sent.approval).toEqual({ decision: 'rejected', by: 'person', reason: 'the patch touches the lockfile' });
  });

  it('runs the calls that need no approval at once and the others as each is decided', async () => {
    const ran: string[] = [];
    const model = scriptedModel({
      steps: [
        {
          toolCalls: [
            { id: 'a', name: 'apply_patch', args: { patch: 'a' } },
            { id: 'l', name: 'read_log', args: {} },
            { id: 'b', name: 'apply_patch', args: { patch: 'b' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const session = await new Agent({ model, tools: tools(ran) }).session();
    const paused = await session.send('fix CI');
    expect(paused.pendingApprovals.map((request) => request.callId)).toEqual(['a', 'b']);
    expect(ran).toEqual(['l']);
    expect(toolResults(session.messages).map((result) => result.toolCallId)).toEqual(['l']);

    await session.approve('a');
    const stillPaused = await session.resume();
    expect(stillPaused.status).toBe('paused');
    expect(stillPaused.pendingApprovals.map((request) => request.callId)).toEqual(['b']);
    expect(ran).toEqual(['l', 'a']);
    expect(model.requests).toHaveLength(1);

    await session.reject('b');
    expect((await session.resume()).text).toBe('done');
    expect(ran).toEqual(['l', 'a']);
    const sent = model.requests[1]?.messages.filter((message) => message.role === 'tool') as ToolMessage[];
    expect(sent.map((result) => [result.toolCallId, result.isError])).toEqual([
      ['l', false],
      ['a', false],
      ['b', true],
    ]);
  });

  it('approveAll and rejectAll decide every waiting call', async () => {
    const ran: string[] = [];
    const twoPatches: ScriptStep = {
      toolCalls: [
        { id: 'x', name: 'apply_patch', args: {} },
        { id: 'y', name: 'apply_patch', args: {} },
      ],
    };
    const model = scriptedModel({ steps: [twoPatches, { text: 'one' }, { ...twoPatches, toolCalls: [{ id: 'z', name: 'apply_patch' }] }, { text: 'two' }] });
    const session = await new Agent({ model, tools: tools(ran) }).session();
    await session.send('first');
    expect((await session.approveAll()).map((request) => request.callId)).toEqual(['x', 'y']);
    await session.resume();
    expect(ran).toEqual(['x', 'y']);
    await session.send('second');
    await session.rejectAll({ reason: 'not today' });
    await session.resume();
    expect(ran).toEqual(['x', 'y']);
    expect(toolResults(session.messages).at(-1)).toMatchObject({ toolCallId: 'z', isError: true });
  });

  it('asks a predicate per call, and a policy decides without pausing', async () => {
    const ran: string[] = [];
    const risky: NeedsApproval = (args) => (args as { patch?: string }).patch === 'rm -rf';
    const model = scriptedModel({
      steps: [
        { toolCalls: [{ id: 'safe', name: 'apply_patch', args: { patch: 'ok' } }] },
        { toolCalls: [{ id: 'bad', name: 'apply_patch', args: { patch: 'rm -rf' } }] },
        { text: 'done' },
      ],
    });
    const agent = new Agent({ model, tools: tools(ran, risky), approvalPolicy: autoReject('policy says no') });
    const result = await (await agent.session()).send('go');
    expect(result.status).toBe('finished');
    expect(ran).toEqual(['safe']);
    const messages = model.requests[2]?.messages ?? [];
    expect(toolResults(messages).map((message) => message.approval)).toEqual([
      undefined,
      { decision: 'rejected', by: 'policy', reason: 'policy says no' },
    ]);

    const approving = scriptedModel({ steps: [patchStep, { text: 'patched' }] });
    const session = await new Agent({ model: approving, tools: tools(ran) }).session();
    await session.send('go', { approvalPolicy: autoApprove });
    expect(ran).toEqual(['safe', 'p1']);
    expect(toolResults(session.messages)[0]?.approval).toEqual({ decision: 'approved', by: 'policy' });
  });

  it('a policy that returns nothing leaves the call to a person', async () => {
    const model = scriptedModel({ steps: [patchStep] });
    const session = await new Agent({ model, tools: tools([]), approvalPolicy: () => undefined }).session();
    expect((await session.send('go')).status).toBe('paused');
  });

  it('a new message while paused answers the waiting calls and spends their decisions', async () => {
    const ran: string[] = [];
    const store = new MemorySessionStore();
    const model = scriptedModel({ steps: [patchStep, { text: 'ok, something else' }] });
    const session = await new Agent({ model, tools: tools(ran), store }).session({ id: 's' });
    await session.send('fix CI');
    await session.approve('p1');
    expect((await store.load('s'))?.approvals?.decisions).toHaveLength(1);
    await session.send('never mind, explain the log instead');
    expect(ran).toEqual([]);
    expect(toolResults(session.messages)[0]?.content).toContain('a new message came first');
    expect((await store.load('s'))?.approvals).toBeUndefined();
    expect(session.pendingApprovals).toEqual([]);
  });

  it('refuses decisions on calls that do not wait, and while the session runs', async () => {
    const model = scriptedModel({ steps: [patchStep, { text: 'slow', delayMs: 30 }] });
    const session = await new Agent({ model, tools: tools([]) }).session();
    await expect(session.approve('p1')).rejects.toMatchObject({ code: 'invalid_argument' });
    await session.send('fix');
    await expect(session.approve('nope')).rejects.toThrow(/no tool call "nope" is waiting.*waiting: p1/);
    await session.approve('p1');
    const running = session.resume();
    await expect(session.reject('p1')).rejects.toBeInstanceOf(SessionBusyError);
    await running;
  });

  it('a decision survives reopening the session; a crash before resume loses nothing and runs nothing twice', async () => {
    const ran: string[] = [];
    const store = new MemorySessionStore();
    const model = scriptedModel({ steps: [patchStep, { text: 'patched' }] });
    const agent = new Agent({ model, tools: tools(ran), store });
    await (await agent.session({ id: 's' })).send('fix CI');

    // Another process: the waiting call is worked out from the transcript.
    const reopened = await agent.session({ id: 's' });
    expect(reopened.pendingApprovals.map((request) => request.callId)).toEqual(['p1']);
    await reopened.approve('p1', { note: 'go' });
    // ...which dies before resuming. The next one finds the decision and runs the call once.
    const after = await agent.session({ id: 's' });
    expect(after.pendingApprovals).toEqual([]);
    expect(after.unfinished).toBe(true);
    expect((await after.resume()).text).toBe('patched');
    expect(ran).toEqual(['p1']);
    expect((await agent.session({ id: 's' })).unfinished).toBe(false);
  });
});
