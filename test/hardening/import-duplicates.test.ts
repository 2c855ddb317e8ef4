/**
 * A Claude Code file whose lines reuse a uuid (a hand-edited or spliced file): the
 * importer reads one line per uuid, so the others must be reported as dropped,
 * never replaced silently while the report says "nothing dropped".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, runCli } from '../../packages/cli/src/testing/cli-harness.js';

let fixtures: Awaited<ReturnType<typeof fixtureDir>>;
beforeAll(async () => {
  fixtures = await fixtureDir();
});
afterAll(() => fixtures.cleanup());

const line = (uuid: string, parentUuid: string | null, type: 'user' | 'assistant', text: string) =>
  JSON.stringify({
    type,
    uuid,
    parentUuid,
    sessionId: 's',
    timestamp: '2026-01-01T00:00:00.000Z',
    message: { role: type, content: [{ type: 'text', text }] },
  });

describe('Claude Code import with duplicate line uuids', () => {
  it('reports the lines it does not read instead of replacing them silently', async () => {
    const file = await fixtures.write(
      'duplicates.jsonl',
      [line('u1', null, 'user', 'first question'), line('a1', 'u1', 'assistant', 'first answer'), line('a1', 'u1', 'assistant', 'spliced answer')].join('\n') + '\n',
    );
    const result = await runCli(['import', '--from', 'claude-code', file, '--lossy', '--json', '-o', `${file}.out.jsonl`]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { dropped: Array<{ what: string; lines?: number[]; count?: number }> };
    const duplicate = report.dropped.find((item) => /uuid/.test(item.what));
    expect(duplicate, result.stdout).toBeDefined();
    expect(JSON.stringify(duplicate)).toMatch(/\b[23]\b/);
  });
});
