import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { followUps } from './follow-ups.js';

async function collect(source: Parameters<typeof followUps>[0]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of followUps(source)) lines.push(line);
  return lines;
}

describe('followUps', () => {
  it('yields each non-empty line of a piped stdin', async () => {
    const input = Readable.from(['first question\n\n  second  \n', 'third']);
    expect(await collect({ input, output: new PassThrough(), interactive: false })).toEqual([
      'first question',
      'second',
      'third',
    ]);
  });

  it('stops waiting on an open pipe nobody writes to when given an idle timeout', async () => {
    const input = new PassThrough();
    input.write('only line\n');
    const started = Date.now();
    expect(await collect({ input, output: new PassThrough(), interactive: false, idleTimeoutMs: 100 })).toEqual([
      'only line',
    ]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('prompts on a terminal until an empty answer, and not at all when not interactive', async () => {
    const terminal = () => Object.assign(new PassThrough(), { isTTY: true });
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => {
      shown += chunk.toString('utf8');
    });
    const input = terminal();
    const answers = collect({ input, output, interactive: true });
    input.write('why did #1887 fail?\n');
    setTimeout(() => input.write('\n'), 20);
    expect(await answers).toEqual(['why did #1887 fail?']);
    expect(shown).toContain('follow-up (empty line to finish)>');
    expect(await collect({ input: terminal(), output: new PassThrough(), interactive: false })).toEqual([]);
  });
});
