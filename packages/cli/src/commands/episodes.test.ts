import { createTokenCounter, type Message } from '@episodic/core';
import { FRAMING } from '@episodic/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeSummary } from './episodes.js';
import type { SectionTokens } from '../section-tokens.js';
import { fixtureDir, malformedText, runCli, transcriptText, twoEpisodes } from '../testing/cli-harness.js';

interface EpisodesJson {
  source: string;
  systemTokens: number;
  episodes: EpisodeSummary[];
  total: SectionTokens;
}

let dir: Awaited<ReturnType<typeof fixtureDir>>;
let transcript: string;

beforeAll(async () => {
  dir = await fixtureDir();
  transcript = await dir.write('session.jsonl', transcriptText(twoEpisodes));
});
afterAll(() => dir.cleanup());

async function episodesJson(argv: readonly string[], stdin?: string): Promise<EpisodesJson> {
  const result = await runCli(['episodes', ...argv, '--json'], { stdin });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as EpisodesJson;
}

function sectionSum(tokens: SectionTokens): number {
  return tokens.user + tokens.assistantText + tokens.reasoning + tokens.toolCalls + tokens.toolResults;
}

describe('episodic episodes --json', () => {
  it('lists each episode with its messages, steps and tool calls', async () => {
    const { episodes } = await episodesJson([transcript]);
    expect(
      episodes.map(({ index, preamble, messages, steps, toolCalls }) => ({
        index,
        preamble,
        messages,
        steps,
        toolCalls,
      })),
    ).toEqual([
      { index: 0, preamble: false, messages: 6, steps: 3, toolCalls: 2 },
      { index: 1, preamble: false, messages: 4, steps: 2, toolCalls: 1 },
    ]);
    expect(episodes[0]!.firstUserText).toBe(twoEpisodes[1]!.content);
    expect(episodes[1]!.firstUserText).toBe('Thanks! Is the flaky e2e test related?');
  });

  it('splits tokens by section: sections add up to o200k counts of the messages', async () => {
    const { episodes, total, systemTokens } = await episodesJson([transcript]);
    const counter = createTokenCounter();
    const messages = twoEpisodes as Message[];
    const count = (from: number, to: number) =>
      messages.slice(from, to).reduce((sum, message) => sum + counter.countMessage(message), 0);
    expect(systemTokens).toBe(count(0, 1));
    expect(episodes[0]!.tokens.total).toBe(count(1, 7));
    expect(episodes[1]!.tokens.total).toBe(count(7, 11));
    for (const episode of episodes) expect(sectionSum(episode.tokens)).toBe(episode.tokens.total);
    expect(total.total).toBe(count(1, 11));

    // Episode 2: one reasoning part, one tool call and one tool result, counted alone.
    const second = episodes[1]!.tokens;
    expect(second.reasoning).toBe(FRAMING.reasoning + counter.countText('Check the e2e history before answering.'));
    expect(second.toolCalls).toBe(
      FRAMING.toolCall + counter.countText('get_ci_log') + counter.countText('{"run":41,"job":"e2e"}'),
    );
    expect(second.toolResults).toBe(counter.countMessage(messages[9]!));
    expect(second.user).toBe(counter.countMessage(messages[7]!));
  });

  it('reads standard input with - and numbers a preamble before the first user message', async () => {
    const withPreamble = [twoEpisodes[0]!, twoEpisodes[10]!, ...twoEpisodes.slice(7, 11)];
    const { episodes, source } = await episodesJson(['-'], transcriptText(withPreamble));
    expect(source).toBe('-');
    expect(episodes.map((episode) => [episode.preamble, episode.messages, episode.firstUserText])).toEqual([
      [true, 1, ''],
      [false, 4, 'Thanks! Is the flaky e2e test related?'],
    ]);
  });
});

describe('episodic episodes (table)', () => {
  it('prints a row per episode, a total row and the token columns', async () => {
    const json = await episodesJson([transcript]);
    const result = await runCli(['episodes', transcript]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `${transcript}: 2 episodes, 10 messages, ${(json.total.total + json.systemTokens).toLocaleString('en-US')} tokens ` +
        `(system prompt ${json.systemTokens})`,
    );
    const header = lines.find((line) => line.startsWith('#'));
    expect(header?.split(/\s{2,}/)).toEqual([
      '#',
      'first user message',
      'messages',
      'steps',
      'tool calls',
      'user',
      'text',
      'reasoning',
      'tool calls',
      'tool results',
      'total',
    ]);
    const [first, second, all] = lines.slice(-3).map((line) => line.trim().split(/\s{2,}/));
    // The first user message is longer than the column: cut with an ellipsis.
    expect(first).toEqual([
      '1',
      '"CI is red on main since this morning. C…"',
      '6',
      '3',
      '2',
      ...cells(json.episodes[0]!.tokens),
    ]);
    expect(second).toEqual([
      '2',
      '"Thanks! Is the flaky e2e test related?"',
      '4',
      '2',
      '1',
      ...cells(json.episodes[1]!.tokens),
    ]);
    expect(all).toEqual(['all episodes', '10', '5', '3', ...cells(json.total)]);
  });

  it('never prints control characters from the transcript (terminal escape sequences)', async () => {
    const hostile = [
      { role: 'user', content: 'CI red \u001b]0;pwned\u0007\u001b[2J\u009b31m again' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: 'c\u001b[1m1', name: 'get\u001b[8m_log', args: {} }],
      },
      { role: 'tool', toolCallId: 'c\u001b[1m1', toolName: 'get\u001b[8m_log', content: 'ok' },
      { role: 'assistant', content: [{ type: 'text', text: 'done \u001b[0m' }] },
    ];
    const file = await dir.write('hostile.jsonl', transcriptText(hostile));
    for (const argv of [['episodes', file], ['pack', file, '--budget', '16k']]) {
      const result = await runCli(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).not.toMatch(/[^\t\n\u0020-\u007e\u00a0-\uffff]/);
    }
    expect((await runCli(['episodes', file])).stdout).toContain('CI red \\u001b]0;pwned\\u0007');
  });

  it('says so for an empty transcript', async () => {
    const empty = await dir.write('empty.jsonl', '\n');
    const result = await runCli(['episodes', empty]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${empty}: 0 episodes, 0 messages, 0 tokens\n`);
  });
});

describe('episodic episodes: errors', () => {
  it('exits 1 naming the file and line of a malformed line', async () => {
    const bad = await dir.write('bad.jsonl', malformedText(9));
    const result = await runCli(['episodes', bad]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith(`episodic: ${bad}, line 9: `)).toBe(true);
  });

  it('exits 1 for a directory given as the file', async () => {
    const result = await runCli(['episodes', dir.path('')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is a directory');
  });

  it('exits 2 for an unknown flag or a missing file argument', async () => {
    for (const argv of [['episodes', transcript, '--budget', '5'], ['episodes']]) {
      const result = await runCli(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Usage: episodic episodes FILE|-|--store SPEC --session ID [--from SOURCE] [--json]');
    }
  });
});

function cells(tokens: SectionTokens): string[] {
  return [tokens.user, tokens.assistantText, tokens.reasoning, tokens.toolCalls, tokens.toolResults, tokens.total].map(
    (value) => value.toLocaleString('en-US'),
  );
}

describe('episodic episodes --html over its input', () => {
  it('refuses to overwrite the transcript (exit 2), also through another spelling of its path', async () => {
    const file = await dir.write('mine.jsonl', transcriptText(twoEpisodes));
    const other = file.replace(/mine\.jsonl$/, './mine.jsonl');
    const result = await runCli(['episodes', file, '--html', other]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is the transcript being read; choose another file');
    expect((await runCli(['episodes', file])).code).toBe(0);
  });
});

describe('episodic episodes --html', () => {
  it('writes a self-contained report with the episodes as data', async () => {
    const out = dir.path('episodes.html');
    const result = await runCli(['episodes', transcript, '--html', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Wrote the HTML report to ${out}`);
    const { readFile } = await import('node:fs/promises');
    const html = await readFile(out, 'utf8');
    expect(html).toContain('<canvas');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain('CI is red on main since this morning');
  });
});
