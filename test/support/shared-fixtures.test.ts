/**
 * When the real-data suites run: always when the fixture folder is there (so a file
 * with the wrong sha256 fails), and when CI requires it (so a missing folder fails);
 * otherwise they step aside with one line naming the folder.
 */
import { describe, expect, it } from 'vitest';
import { realDataMode, sharedFixturesRoot } from './shared-fixtures.js';

const nowhere = '/nonexistent/episodic-fixtures';

describe('realDataMode', () => {
  it('steps aside with one line naming the missing folder on a bare clone', () => {
    const mode = realDataMode({ EPISODIC_SHARED_FIXTURES: nowhere }, () => false);
    expect(mode).toEqual({ run: false, notice: expect.stringContaining(`real-data suites skipped: no fixtures at ${nowhere}; see `) });
    if (!mode.run) expect(mode.notice).not.toContain('\n');
  });

  it('runs, and so fails on every placed file, when CI requires the fixtures', () => {
    expect(realDataMode({ EPISODIC_SHARED_FIXTURES: nowhere, EPISODIC_REQUIRE_FIXTURES: '1' }, () => false)).toEqual({ run: true });
  });

  it('runs whenever the folder is there, required or not', () => {
    const seen: string[] = [];
    const exists = (path: string) => (seen.push(path), true);
    expect(realDataMode({ EPISODIC_SHARED_FIXTURES: '/staged' }, exists)).toEqual({ run: true });
    expect(seen).toEqual(['/staged']);
  });

  it('looks beside the clone when no folder is named', () => {
    expect(sharedFixturesRoot({})).toMatch(/[/\\]shared[/\\]fixtures$/);
  });
});
