/**
 * Cut tool results an agent's model can read back: the marker names the reader, and the
 * reader is offered from the first call of an agent with tools (and after a reopen), so
 * the tools never change within a session, cut or no cut.
 */
import { describe, expect, it } from 'vitest';
import { Agent } from './agent.js';
import type { ModelRequest } from '../model/model-adapter.js';
import type { ToolMessage } from '../message/message.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import { type ScriptStep, scriptedModel } from '../testing/scripted-model.js';
import type { AgentTool } from '../loop/tool.js';
import { MemoryJournal, SimulatedCrash } from '../testing/memory-journal.js';
import { stepIds } from '../loop/durable/durable-runtime.js';

const log = Array.from({ length: 1_500 }, (_, index) => `line ${index}: step ${index % 13} said something`).join('\n');
const budget = 20_000; // a tool-result cap of 512 tokens: the log is cut

function bash(output: string): AgentTool {
  return {
    spec: { name: 'bash', description: 'Runs a command.', inputSchema: { type: 'object', properties: {} } },
    execute: async () => ({ content: output }),
  };
}

const toolNames = (request: ModelRequest) => (request.tools ?? []).map((tool) => tool.name);

/** The reader's arguments in the marker of the request's shortened result of `callId`. */
function markerArgs(request: ModelRequest, callId: string): { toolCallId: string; offset: number; to: number } {
  const result = request.messages.find((message): message is ToolMessage => message.role === 'tool' && message.toolCallId === callId);
  const found = /\(characters (\d+) to (\d+)\); to read them call read_cut_result with (\{[^}]*\})/.exec(String(result?.content));
  if (!found) throw new Error(`no reader marker in the result of ${callId}`);
  return { ...(JSON.parse(found[3]!) as { toolCallId: string; offset: number }), to: Number(found[2]) };
}

describe('Agent with readable cut results', () => {
  it('lets the model read what was cut, offering the reader from the first call on, also after a reopen', async () => {
    const seen: string[][] = [];
    let marker: { toolCallId: string; offset: number; to: number } | undefined;
    const steps = (request: ModelRequest, index: number): ScriptStep => {
      seen.push(toolNames(request));
      if (index === 0) return { toolCalls: [{ id: 'call_log', name: 'bash', args: {} }] };
      if (index === 1) {
        marker = markerArgs(request, 'call_log');
        return { toolCalls: [{ id: 'call_read', name: 'read_cut_result', args: { toolCallId: marker.toolCallId, offset: marker.offset } }] };
      }
      return { text: 'done' };
    };
    const store = new MemorySessionStore();
    const agent = new Agent({ model: scriptedModel({ steps }), tools: [bash(log)], store, context: { budget } });
    const session = await agent.session({ id: 's1' });
    await session.send('what failed?');
    // The same tools on every call: a reader added after the cut would change the prefix of every later call.
    expect(seen).toEqual([
      ['bash', 'read_cut_result'],
      ['bash', 'read_cut_result'],
      ['bash', 'read_cut_result'],
    ]);
    expect(marker).toMatchObject({ toolCallId: 'call_log' });
    const read = session.messages.find((message): message is ToolMessage => message.role === 'tool' && message.toolCallId === 'call_read');
    expect(read?.isError).not.toBe(true);
    const content = String(read?.content);
    expect(content.startsWith(`[call_log (bash), characters ${marker!.offset} to `)).toBe(true);
    const text = content.slice(content.indexOf('\n') + 1).replace(/\n\[\d+ characters left; .*\]$/, '');
    // The reader returns the cut characters themselves, from the marker's offset.
    expect(text.length).toBeGreaterThan(500);
    expect(log.slice(marker!.offset, marker!.to).startsWith(text)).toBe(true);

    // Another agent object (another worker) reopens the session: the reader is offered from its first call.
    const later: string[][] = [];
    let readSent: unknown;
    const record = (request: ModelRequest): ScriptStep => {
      later.push(toolNames(request));
      readSent = request.messages.find((message) => message.role === 'tool' && message.toolCallId === 'call_read')?.content;
      return { text: 'still here' };
    };
    const reopened = new Agent({
      model: scriptedModel({ steps: record }),
      tools: [bash(log)],
      store,
      context: { budget },
    });
    await (await reopened.session({ id: 's1' })).send('and now?');
    expect(later).toEqual([['bash', 'read_cut_result']]);
    // A read fits the cap: it is sent whole, also once its episode is past.
    expect(readSent).toBe(content);
  });

  it('reads as a durable step under a durable run, replayed after a crash', async () => {
    const steps = (request: ModelRequest, index: number): ScriptStep => {
      const done = request.messages.filter((message) => message.role === 'tool').length;
      if (done === 0) return { toolCalls: [{ id: 'call_log', name: 'bash', args: {} }] };
      if (done === 1) {
        const { toolCallId, offset } = markerArgs(request, 'call_log');
        return { toolCalls: [{ id: 'call_read', name: 'read_cut_result', args: { toolCallId, offset } }] };
      }
      return { text: `done ${index}` };
    };
    const store = new MemorySessionStore();
    const agent = new Agent({ model: scriptedModel({ steps }), tools: [bash(log)], store, context: { budget } });
    const journal = new MemoryJournal();
    const run = async () => (await agent.session({ id: 'd' })).send('go', { durable: { runtime: journal, episode: 0 } });
    journal.crashAt({ stepId: stepIds.model('d', 0, 3), when: 'before' });
    await expect(run()).rejects.toBeInstanceOf(SimulatedCrash);
    expect(journal.ran).toContain(stepIds.tool('d', 0, 'call_read'));
    const ran = journal.ran.length;
    expect((await run()).reason).toBe('done');
    // Only the last model call ran again; the read was replayed from its record.
    expect(journal.ran.slice(ran)).toEqual([stepIds.model('d', 0, 3)]);
    const messages = (await store.load('d'))!.messages;
    const read = messages.find((message): message is ToolMessage => message.role === 'tool' && message.toolCallId === 'call_read');
    expect(String(read?.content)).toMatch(/^\[call_log \(bash\), characters \d+ to \d+ of \d+\]\n/);
  });

  // Before, the reader joined the tools after the first cut, so an agent whose results were never
  // cut sent byte-identical requests to one without the reader; now every call of an agent with tools
  // carries its spec, so that the tools (and every later thinking block's prefix) never change.
  it('sends the same tools on every call, before and after a cut, and differs from cutResults: cut only by the reader', async () => {
    const requestsOf = async (cutResults: 'readable' | 'cut', output: string) => {
      const model = scriptedModel({
        steps: [{ toolCalls: [{ id: 'call_ls', name: 'bash', args: {} }] }, { text: 'two files' }],
      });
      const agent = new Agent({ model, tools: [bash(output)], context: { budget, cutResults } });
      await (await agent.session({ id: 'same' })).send('list the files');
      return model.requests;
    };
    const uncut = await requestsOf('readable', 'a.txt\nb.txt');
    const cut = await requestsOf('readable', log);
    expect(uncut.map(toolNames)).toEqual([['bash', 'read_cut_result'], ['bash', 'read_cut_result']]);
    expect(cut.map(toolNames)).toEqual(uncut.map(toolNames));
    // The scripted model's usage counts the reader's spec too; everything else is the same.
    const without = (requests: readonly ModelRequest[]) =>
      JSON.stringify(
        requests.map((request) => ({
          ...request,
          messages: request.messages.map(({ usage: _usage, ...message }) => message),
          tools: request.tools?.filter((tool) => tool.name !== 'read_cut_result'),
        })),
      );
    expect(without(uncut)).toBe(without(await requestsOf('cut', 'a.txt\nb.txt')));
  });

  it('offers no reader to an agent without tools whose history holds no tool result', async () => {
    const model = scriptedModel({ steps: [{ text: 'hi' }, { text: 'again' }] });
    const session = await new Agent({ model, context: { budget } }).session({ id: 'plain' });
    await session.send('hello');
    await session.send('and again');
    expect(model.requests.map(toolNames)).toEqual([[], []]);
  });

  it("keeps today's marker and offers no reader with cutResults: 'cut'", async () => {
    const model = scriptedModel({
      steps: [{ toolCalls: [{ id: 'call_log', name: 'bash', args: {} }] }, { text: 'done' }],
    });
    const agent = new Agent({ model, tools: [bash(log)], context: { budget, cutResults: 'cut' } });
    await (await agent.session()).send('what failed?');
    const second = model.requests[1]!;
    expect(toolNames(second)).toEqual(['bash']);
    const result = second.messages.find((message) => message.role === 'tool') as ToolMessage;
    expect(result.content).toMatch(/\n\[\.\.\. \d+ characters cut from the middle of this tool result \.\.\.\]\n/);
  });

  it('has no reader where the budget is too small for a read worth a tool', async () => {
    const model = scriptedModel({
      steps: [{ toolCalls: [{ id: 'call_log', name: 'bash', args: {} }] }, { text: 'done' }],
    });
    // A cap of 160 tokens: a read would hold little more than its header.
    const agent = new Agent({ model, tools: [bash(log)], context: { budget: 4_000 } });
    await (await agent.session()).send('what failed?');
    expect(model.requests.map(toolNames)).toEqual([['bash'], ['bash']]);
    const result = model.requests[1]!.messages.find((message) => message.role === 'tool') as ToolMessage;
    expect(result.content).toMatch(/\[\.\.\. \d+ characters cut from the middle of this tool result \.\.\.\]/);
  });

  it('refuses a tool of its own named like the reader, naming both ways out', () => {
    const model = scriptedModel({ steps: [] });
    const mine: AgentTool = { ...bash(''), spec: { ...bash('').spec, name: 'read_cut_result' } };
    expect(() => new Agent({ model, tools: [mine], context: { budget } })).toThrow(
      /tool named "read_cut_result".*rename your tool, or pass cutResults: 'cut'/,
    );
    expect(new Agent({ model, tools: [mine], context: { budget, cutResults: 'cut' } }).budget).toBe(budget);
  });
});
