/**
 * Input that used to brick a session (issue 18, item 1): the loop saved a message
 * before counting it, and tiktoken crashed on a megabyte of one character, so every
 * later send() and resume() failed. Now nothing is saved that the loop cannot pack,
 * an oversized user message gets a typed error before it is saved, and megabyte
 * tool results are counted and cut.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { ContextOverflowError, EpisodicError } from '../errors.js';
import { FileSessionStore } from '../store/file-session-store.js';
import type { ModelRequest } from '../model/model-adapter.js';
import { scriptedModel, type ScriptStep } from '../testing/scripted-model.js';
import type { AgentTool } from './tool.js';

const MEGABYTE = 1 << 20;

/** A seeded megabyte of base64 (random bytes: the worst case for the tokenizer). */
function randomBase64(bytes: number): string {
  const data = Buffer.alloc(bytes);
  let state = 7;
  for (let index = 0; index < bytes; index += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    data[index] = state >>> 16;
  }
  return data.toString('base64').slice(0, bytes);
}

function model() {
  return scriptedModel({
    steps: (request: ModelRequest): ScriptStep => {
      const last = request.messages.at(-1);
      if (last?.role === 'user' && String(last.content).startsWith('dump')) {
        return { toolCalls: [{ name: 'dump', args: { kind: String(last.content).slice(5) } }] };
      }
      return { text: 'ok' };
    },
  });
}

const dump: AgentTool = {
  spec: { name: 'dump', description: 'prints a lot', inputSchema: { type: 'object' } },
  execute: async (args) => ({
    content: (args as { kind: string }).kind === 'base64' ? randomBase64(MEGABYTE) : 'a'.repeat(MEGABYTE),
  }),
};

async function withDirectory(run: (directory: string) => Promise<void>): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-hostile-'));
  try {
    await run(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe('hostile input', () => {
  it('refuses a user message no call could send, before saving it, and the session goes on', async () => {
    await withDirectory(async (directory) => {
      const agent = new Agent({ model: model(), budget: 8_000, store: new FileSessionStore({ directory }) });
      const session = await agent.session({ id: 'big-input' });
      await session.send('hello');
      const error = await session.send('a'.repeat(MEGABYTE)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextOverflowError);
      expect(EpisodicError.isInstance(error) && error.code).toBe('context_overflow');
      expect((error as Error).message).toMatch(/it was not saved/);
      const saved = await readFile(join(directory, 'big-input.jsonl'), 'utf8');
      expect(saved).not.toContain('aaaaaaaa');
      expect(session.messages).toHaveLength(2);
      // Still usable, in this process and after a reopen.
      expect((await session.send('and now?')).text).toBe('ok');
      const reopened = await agent.session({ id: 'big-input' });
      expect((await reopened.send('still there?')).text).toBe('ok');
    });
  });

  for (const kind of ['one character', 'base64'] as const) {
    it(`packs a session whose newest tool result is a megabyte of ${kind}`, async () => {
      await withDirectory(async (directory) => {
        const agent = new Agent({
          model: model(),
          tools: [dump],
          budget: 64_000,
          store: new FileSessionStore({ directory }),
        });
        const session = await agent.session({ id: 'big-result' });
        const packed: number[] = [];
        const result = await session.send(`dump ${kind === 'base64' ? 'base64' : 'chars'}`, {
          onEvent: (event) => event.type === 'context-packed' && packed.push(event.stats.tokens.total),
        });
        expect(result.text).toBe('ok');
        expect(packed).toHaveLength(2);
        for (const total of packed) expect(total).toBeLessThanOrEqual(64_000);
        // The stored session opens and packs again, cold.
        const reopened = await agent.session({ id: 'big-result' });
        expect((await reopened.send('summarize it')).text).toBe('ok');
      });
    });
  }
});
