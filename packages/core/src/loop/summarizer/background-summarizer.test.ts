/**
 * Summaries of evicted episodes written in the background, through a real session on
 * the scripted model: requested at an eviction, saved as a summary line, sent from the
 * first call after they are ready, never waited for, and asked again after a crash.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { words } from '../../../../../test/support/transcripts.js';
import { Agent, type AgentOptions } from '../../agent/agent.js';
import type { AgentEvent } from '../agent-events.js';
import { FileSessionStore } from '../../store/file-session-store.js';
import type { ModelRequest } from '../../model/model-adapter.js';
import type { PackStats } from '../../packing/pack-types.js';
import { scriptedModel, type ScriptStep } from '../../testing/scripted-model.js';
import type { AgentTool } from '../tool.js';

const readLog: AgentTool = {
  spec: { name: 'read_log', description: 'reads a log', inputSchema: { type: 'object' } },
  execute: async (_args, context) => ({ content: `log ${context.toolCallId}: ${words(400, context.toolCallId.length)}` }),
};

/** The agent's model: one tool call, then an answer, for every episode. */
function agentModel() {
  return scriptedModel({
    steps: (request: ModelRequest): ScriptStep => {
      const last = request.messages.at(-1);
      return last?.role === 'tool' ? { text: `answer ${words(200)}` } : { toolCalls: [{ name: 'read_log', args: {} }] };
    },
  });
}

function summarizerModel(options: { delayMs?: number; fail?: boolean; failWith?: string } = {}) {
  return scriptedModel({
    model: { provider: 'scripted', id: 'cheap-summarizer' },
    steps: (request: ModelRequest): ScriptStep => {
      const input = String(request.messages[0]?.content);
      if (options.fail) return { error: { kind: 'invalid-request', message: options.failWith ?? 'summarizer down' } };
      const episodes = (input.match(/\[user\]/g) ?? []).length;
      return { text: `Summary of ${episodes} episode(s): logs were read.`, delayMs: options.delayMs ?? 0 };
    },
  });
}

async function withStore<T>(run: (store: FileSessionStore, directory: string) => Promise<T>): Promise<T> {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-summary-'));
  try {
    return await run(new FileSessionStore({ directory }), directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

function agent(summarizer: AgentOptions['summarizer'], store: FileSessionStore, model = agentModel()) {
  return new Agent({ model, tools: [readLog], budget: 2_000, store, summarizer, system: 'You read logs.' });
}

async function transcriptLines(directory: string, id: string) {
  const text = await readFile(join(directory, `${id}.jsonl`), 'utf8');
  return text.trim().split('\n').map((line) => JSON.parse(line) as { role: string; episodes?: { from: number; to: number } });
}

describe('background summaries of evicted episodes', () => {
  it('summarizes evicted episodes off the call path and sends the summary from the next call on', async () => {
    await withStore(async (store, directory) => {
      const summarizer = summarizerModel({ delayMs: 5 });
      const model = agentModel();
      const session = await agent({ model: summarizer }, store, model).session({ id: 's1' });
      const packed: PackStats[] = [];
      const onEvent = (event: AgentEvent) => {
        if (event.type === 'context-packed') packed.push(event.stats);
      };
      for (let turn = 0; turn < 10; turn += 1) {
        await session.send(`question ${turn} ${words(30, turn)}`, { onEvent });
        await session.settleSummaries();
      }
      expect(summarizer.requests.length).toBeGreaterThan(0);
      // The summarizer got the evicted episodes as text, in its own request, with no tools.
      expect(summarizer.requests[0]?.tools).toBeUndefined();
      // The head (the first episodes) stays: the evicted ones come after it.
      expect(String(summarizer.requests[0]?.messages[0]?.content)).toMatch(/\[user\] question [1-9]/);
      const lines = (await transcriptLines(directory, 's1')).filter((line) => line.role === 'summary');
      expect(lines.length).toBeGreaterThan(0);
      expect(lines[0]).toMatchObject({ episodes: { from: expect.any(Number) }, model: { id: 'cheap-summarizer' } });
      // Each line starts where the one before ended: nothing summarized twice.
      for (let index = 1; index < lines.length; index += 1) expect(lines[index]?.episodes?.from).toBe(lines[index - 1]?.episodes?.to);
      expect(packed.some((stats) => stats.tokens.summary > 0)).toBe(true);
      // The summarizer's calls count in the session's totals.
      const answers = session.messages.filter((message) => message.role === 'assistant').length;
      expect(session.totals.calls).toBe(answers + lines.length);
      for (const stats of packed) expect(stats.tokens.total).toBeLessThanOrEqual(2_000);
      // The agent's model saw the summary as a user message.
      expect(model.requests.some((request) => request.messages.some((message) => String(message.content).includes('logs were read')))).toBe(true);
    });
  });

  it('never makes a call wait for a summary in flight', async () => {
    await withStore(async (store) => {
      // A summarizer that takes far longer than the whole test would: no call may wait for it.
      const summarizer = summarizerModel({ delayMs: 60_000 });
      const session = await agent({ model: summarizer }, store).session({ id: 's2' });
      const started = Date.now();
      for (let turn = 0; turn < 10; turn += 1) await session.send(`question ${turn} ${words(30, turn)}`);
      expect(summarizer.requests.length).toBe(1);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(session.messages.some((message) => message.role === 'summary')).toBe(false);
    });
  });

  it('asks again after a crash while a summary was in flight, and the reopened session uses it', async () => {
    await withStore(async (store, directory) => {
      const stuck = summarizerModel({ delayMs: 60_000 });
      const first = await agent({ model: stuck }, store).session({ id: 's3' });
      for (let turn = 0; turn < 10; turn += 1) await first.send(`question ${turn} ${words(30, turn)}`);
      expect(stuck.requests.length).toBe(1);
      const requested = String(stuck.requests[0]?.messages[0]?.content);
      // The process dies here: the summary in flight is lost with it. Another process opens the session.
      const working = summarizerModel();
      const reopened = await agent({ model: working }, store).session({ id: 's3' });
      const stats: PackStats[] = [];
      await reopened.send('question after the crash', {
        onEvent: (event) => event.type === 'context-packed' && stats.push(event.stats),
      });
      await reopened.settleSummaries();
      expect(working.requests.length).toBeGreaterThan(0);
      // The same episodes as the request that was lost.
      const firstEpisode = requested.slice(requested.indexOf('[user]'), requested.indexOf('[user]') + 100);
      expect(firstEpisode.length).toBe(100);
      expect(String(working.requests[0]?.messages[0]?.content)).toContain(firstEpisode);
      await reopened.send('and one more');
      const lines = (await transcriptLines(directory, 's3')).filter((line) => line.role === 'summary');
      expect(lines.length).toBeGreaterThan(0);
      const last = await agent({ model: working }, store).session({ id: 's3' });
      expect(last.messages.filter((message) => message.role === 'summary')).toHaveLength(lines.length);
    });
  });

  it('warns once when the summarizer fails, and the episodes stay left out without a summary', async () => {
    await withStore(async (store) => {
      const failing = summarizerModel({ fail: true });
      const session = await agent({ model: failing }, store).session({ id: 's4' });
      const warnings: AgentEvent[] = [];
      for (let turn = 0; turn < 10; turn += 1) {
        await session.send(`question ${turn} ${words(30, turn)}`, {
          onEvent: (event) => event.type === 'warning' && warnings.push(event),
        });
        await session.settleSummaries();
      }
      expect(warnings.filter((event) => (event as { code?: string }).code === 'summary-failed').length).toBeGreaterThan(0);
      expect(session.messages.some((message) => message.role === 'summary')).toBe(false);
    });
  });

  it("keeps the agent's secrets out of the warning when the summarizer's error echoes one", async () => {
    const primaryKey = 'sk-primary-echoed-5d21c7a0';
    const model = { ...agentModel(), secretValues: () => [primaryKey] };
    const failing = summarizerModel({ fail: true, failWith: `upstream rejected Authorization: Bearer ${primaryKey}` });
    await withStore(async (store) => {
      const session = await agent({ model: failing }, store, model).session({ id: 's5' });
      const warnings: string[] = [];
      for (let turn = 0; turn < 10; turn += 1) {
        await session.send(`question ${turn} ${words(30, turn)}`, {
          onEvent: (event) => (event.type === 'warning' && event.code === 'summary-failed' ? warnings.push(event.message) : undefined),
        });
        await session.settleSummaries();
      }
      expect(warnings.length).toBeGreaterThan(0);
      for (const warning of warnings) expect(warning).toContain('Bearer [redacted]');
    });
  });
});
