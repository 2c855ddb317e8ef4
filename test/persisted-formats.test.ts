/**
 * Files saved by earlier versions keep loading: every file in
 * `test/fixtures/persisted/v1/` (written by the code of format version 1, see its
 * README) is loaded through the public API, and what comes out is checked. Never
 * edit those files; when a format changes, add `v2/` beside them and tests for it.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Agent,
  type AgentEvent,
  type AgentTool,
  type AssistantMessage,
  createTokenCounter,
  type Message,
  type ModelRef,
} from '@episodic/core';
import { formatTranscript, splitEpisodes } from '@episodic/core/transcript';
import { packContext } from '@episodic/core/packing';
import { FileReplayCache, FileSessionStore, readTranscript } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { afterEach, describe, expect, it } from 'vitest';

const v1 = fileURLToPath(new URL('./fixtures/persisted/v1/', import.meta.url));
const claude: ModelRef = { provider: 'anthropic', id: 'claude-sonnet-4-5' };

const scratch: string[] = [];
/** A copy of fixture files to load from: loading may write (a newline, a stale sidecar deleted), fixtures must not change. */
async function copyOf(...names: string[]): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-v1-'));
  scratch.push(directory);
  for (const name of names) await cp(join(v1, name), join(directory, name), { recursive: true });
  return directory;
}
afterEach(async () => {
  for (const directory of scratch.splice(0)) await rm(directory, { recursive: true, force: true });
});

const tools: AgentTool[] = ['get_ci_log', 'search_text'].map((name) => ({
  spec: { name, description: name, inputSchema: { type: 'object' } },
  execute: async () => ({ content: 'ok' }),
}));
const partsOf = (message: Message | undefined) => (message?.role === 'assistant' ? message.content : []);
const reasoningOf = (messages: readonly Message[]) =>
  messages.flatMap((message) => partsOf(message).flatMap((part) => (part.type === 'reasoning' ? [part] : [])));

describe('persisted format v1', () => {
  it('transcript: every part type, opaque data and unknown fields load, and are written back byte for byte', async () => {
    const path = join(v1, 'transcript.jsonl');
    const messages = await readTranscript(path);
    expect(messages.map((message) => message.role)).toEqual([
      'system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'user', 'assistant',
    ]);
    expect(formatTranscript(messages)).toBe(await readFile(path, 'utf8'));
    expect(splitEpisodes(messages).map((episode) => [episode.start, episode.end])).toEqual([[1, 9], [9, 11]]);

    const [, firstUser, claudeStep, logResult, openaiStep, errorResult, geminiStep, , openrouterStep, secondUser, last] = messages;
    expect(firstUser).toMatchObject({ content: 'CI is red on main. Why?', metadata: { client: 'web-chat', turn: 1 } });
    expect(partsOf(claudeStep)).toEqual([
      { type: 'reasoning', text: 'The failing job is e2e; I need its log before guessing.', signature: 'EqQBCkYIBxgCKkDn1xZ0sig' },
      {
        type: 'reasoning', text: '', redacted: true,
        providerData: { provider: 'anthropic', model: 'claude-sonnet-4-5', data: 'EmwKAhgBEgy3redacted0blob' },
      },
      { type: 'text', text: 'Let me read the e2e log of run 41.', cache_control: { type: 'ephemeral' } },
      { type: 'tool-call', id: 'toolu_01A9q', name: 'get_ci_log', args: { run: 41, job: 'e2e', tail: 200 } },
    ]);
    expect(claudeStep).toMatchObject({
      model: claude,
      usage: { inputTokens: 1840, cachedInputTokens: 1200, cacheWriteTokens: 512, outputTokens: 96, reasoningTokens: 41, costUsd: 0.00597 },
      stopReason: 'tool-calls',
    });
    expect(logResult).toMatchObject({ role: 'tool', toolCallId: 'toolu_01A9q', toolName: 'get_ci_log', isError: false });
    expect(partsOf(openaiStep)[0]?.providerData).toEqual({
      provider: 'openai', model: 'gpt-5', id: 'rs_68a1f0c2', encrypted_content: 'gAAAAABo-encrypted-reasoning==', summaryIndex: 0,
    });
    expect(partsOf(openaiStep)[1]).toMatchObject({ type: 'tool-call', id: 'call_Xk2', providerData: { id: 'fc_68a1f0c9' } });
    expect(errorResult).toMatchObject({ role: 'tool', toolCallId: 'call_Xk2', isError: true });
    expect(partsOf(geminiStep).map((part) => part.providerData?.thoughtSignature)).toEqual(['CiQB0e2Kb3sig==', 'CiQB0e2Kb4sig==']);
    expect(partsOf(openrouterStep)[0]?.providerData?.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'The button id became submit-button', format: 'unknown', index: 0 },
    ]);
    expect(secondUser?.role === 'user' && secondUser.content).toEqual([
      { type: 'text', text: 'Here is the screenshot of the failing page.' },
      { type: 'image', data: expect.stringMatching(/^iVBORw0KGgo/), mediaType: 'image/png' },
      { type: 'image', url: 'https://ci.example.com/runs/41/artifacts/login.png', detail: 'low' },
    ]);
    expect(last).toMatchObject({ traceId: 'trace-7f3a', usage: { inputTokens: 3100, outputTokens: 20 } });
  });

  it('pack state: loads through the file store and carries the packer on (one episode evicted and summarised)', async () => {
    const directory = await copyOf('pack-state.json', 'transcript.jsonl');
    const transcript = await readTranscript(join(directory, 'transcript.jsonl'));
    const [system, ...messages] = transcript;
    await writeFile(join(directory, 's.jsonl'), formatTranscript(messages));
    await cp(join(directory, 'pack-state.json'), join(directory, 's.state.json'));
    const state = (await new FileSessionStore({ directory }).load('s'))?.packState;
    expect(state).toEqual({
      version: 1,
      evictedEpisodes: 1,
      summary: { episodes: 1, text: 'Earlier: 8 messages about the red e2e job on main (run 41).' },
      current: { start: 8, reasoningDroppedBefore: 8, resultsShrunkBefore: 8, stepsDroppedBefore: 8 },
      previous: { prefixKey: 'EHj4nII1FA8OSazP', messageKeys: ['RQ6tuRcOvwn7tO_C', 'O6xF9S9S-0IcAZAM', 'xZZotJ1iAhDXVMWf'] },
    });
    // States written before heads and summary lines evicted from the front and kept a
    // summary text; the packer still honours the evictions and ignores that text
    // (summaries now come from summary lines in the transcript).
    const packed = packContext({
      messages,
      system: system?.role === 'system' ? system.content : undefined,
      budget: 1_700,
      tokenizer: createTokenCounter(),
      state,
    });
    expect(packed.stats).toMatchObject({ evictedEpisodes: 1, evictedNow: false });
    expect(packed.stats.tokens.summary).toBe(0);
    expect(packed.messages.some((message) => JSON.stringify(message).includes('Earlier: 8 messages'))).toBe(false);
  });

  it('reasoning sidecar: loads through the file store with its signatures and redacted opaque data', async () => {
    const directory = await copyOf('reasoning-sidecar.json');
    await writeFile(join(directory, 's.jsonl'), formatTranscript([{ role: 'user', content: 'CI is red on main. Why?' }]));
    await cp(join(directory, 'reasoning-sidecar.json'), join(directory, 's.reasoning.json'));
    const sidecar = (await new FileSessionStore({ directory }).load('s'))?.reasoningSidecar;
    expect(sidecar).toEqual({
      version: 1,
      episodeStart: 0,
      entries: [
        {
          index: 1,
          fingerprint: 'lZqC-Copg8Qi-Bfe',
          parts: [
            { position: 0, part: { type: 'reasoning', text: 'The e2e job failed; read its log first.', signature: 'EqQBCkYIBxgCKkDsidecar1' } },
            {
              position: 1,
              part: {
                type: 'reasoning', text: '', redacted: true,
                providerData: { provider: 'anthropic', model: 'claude-sonnet-4-5', data: 'EmwKAhgBEgyRedactedSidecar' },
              },
            },
          ],
        },
        {
          index: 3,
          fingerprint: 'VOTy42SA-AUWKC85',
          parts: [{ position: 0, part: { type: 'reasoning', text: 'Timeout on #submit; look for the selector.', signature: 'EqQBCkYIBxgCKkDsidecar2' } }],
        },
      ],
    });
  });

  it('replay-cache log: opens with its three entries and restores reasoning into a history that lacks it', async () => {
    const directory = await copyOf('replay-cache.jsonl');
    const path = join(directory, 'replay-cache.jsonl');
    const before = await readFile(path, 'utf8');
    // Entries are kept two hours by default; these were stored when v1 was written.
    const replayCache = await FileReplayCache.open({ path, ttlMs: Number.POSITIVE_INFINITY });
    expect(replayCache.stats()).toMatchObject({ entries: 3, stored: 0 });
    const deepseek = { provider: 'deepseek', id: 'deepseek-v3.2' };
    const history: Message[] = [
      { role: 'user', content: 'CI is red on main. Why?' },
      {
        role: 'assistant',
        model: deepseek,
        content: [
          { type: 'tool-call', id: 'call_00_log', name: 'get_ci_log', args: { run: 41 } },
          { type: 'tool-call', id: 'call_01_search', name: 'search_text', args: { pattern: 'submit' } },
        ],
      },
      { role: 'tool', toolCallId: 'call_00_log', toolName: 'get_ci_log', content: 'FAIL e2e/login.spec.ts' },
      { role: 'tool', toolCallId: 'call_01_search', toolName: 'search_text', content: 'web/login.html:12' },
    ];
    const model = scriptedModel({ model: deepseek, profile: { retention: 'tool-episodes' }, steps: [{ text: 'Rename the selector.' }] });
    const agent = new Agent({ model, tools, context: { budget: 50_000 }, reasoning: { replayCache } });
    const session = await agent.session({ history });
    expect(reasoningOf(session.messages)).toEqual([{ type: 'reasoning', text: 'Read the failing job log before answering.' }]);
    const events: AgentEvent[] = [];
    await session.resume({ onEvent: (event) => events.push(event) });
    expect(events).toContainEqual({ type: 'reasoning-restored', messages: 1, tokens: 8, missing: 0 });
    expect(reasoningOf(model.requests[0]?.messages ?? [])).toHaveLength(1);
    await replayCache.close();
    expect((await readFile(path, 'utf8')).startsWith(before)).toBe(true);
  });

  it('file-session-store directory: a finished session continues, and an interrupted one resumes with its reasoning at rest', async () => {
    const directory = join(await copyOf('file-session-store'), 'file-session-store');
    const store = new FileSessionStore({ directory });
    expect((await store.list()).sort()).toEqual(['ci-red', 'ci-red-at-rest']);

    const stored = await store.load('ci-red');
    expect(stored?.messages).toHaveLength(6);
    expect(stored?.packState).toMatchObject({ version: 1, evictedEpisodes: 0, current: { start: 4 } });
    const finished = await new Agent({ model: scriptedModel({ model: claude, steps: [{ text: 'Done.' }] }), tools, store, context: { budget: 50_000 } })
      .session({ id: 'ci-red' });
    expect(finished.unfinished).toBe(false);
    expect(finished.totals).toMatchObject({ calls: 3, inputTokens: 110 + 166 + 185, outputTokens: 57 + 43 + 21 });
    expect(reasoningOf(finished.messages).map((part) => part.signature)).toEqual(['EqQBCkYIBxgCKkDstore1', 'EqQBCkYIBxgCKkDstore2']);
    expect((await finished.send('Thanks. Open the fix?')).text).toBe('Done.');
    expect((await store.load('ci-red'))?.messages).toHaveLength(8);

    const transcript = await readFile(join(directory, 'ci-red-at-rest.jsonl'), 'utf8');
    expect(transcript).not.toContain('"type":"reasoning"');
    const model = scriptedModel({ model: claude, steps: [{ text: 'The selector was renamed.' }] });
    const interrupted = await new Agent({ model, tools, store, context: { budget: 50_000 } })
      .session({ id: 'ci-red-at-rest', persistReasoning: 'current-episode' });
    expect(interrupted.unfinished).toBe(true);
    expect(reasoningOf(interrupted.messages)).toEqual([
      { type: 'reasoning', text: 'Start with the log of the red run.', signature: 'EqQBCkYIBxgCKkDrest1' },
      { type: 'reasoning', text: 'Same timeout; search for the selector.', signature: 'EqQBCkYIBxgCKkDrest2' },
    ]);
    const result = await interrupted.resume();
    expect(result.text).toBe('The selector was renamed.');
    const sent = model.requests[0]?.messages ?? [];
    expect(reasoningOf(sent).map((part) => part.signature)).toEqual(['EqQBCkYIBxgCKkDrest1', 'EqQBCkYIBxgCKkDrest2']);
    expect(sent.filter((message): message is AssistantMessage => message.role === 'assistant')).toHaveLength(2);
  });
});
