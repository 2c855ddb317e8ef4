/**
 * The real recordings load, and each one is what its manifest row says it is.
 */
import { describe, expect, it } from 'vitest';
import { loadRecording, recordingEntries, runsHere } from './recordings.js';

const placed = recordingEntries().filter(runsHere);
const unplaced = recordingEntries().filter((entry) => !runsHere(entry));

describe('real recorded provider traffic', () => {
  it('names a source repository, commit and permissive license for every recording', () => {
    for (const entry of recordingEntries()) {
      expect(entry.source.commit, entry.id).toMatch(/^[0-9a-f]{40}$/);
      expect(['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', 'CC0-1.0'], entry.id).toContain(entry.source.license);
    }
  });

  it('lists a sha256 for every recording and a unique id', () => {
    for (const entry of recordingEntries()) expect(entry.source.sha256, entry.id).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(recordingEntries().map((entry) => entry.id)).size).toBe(recordingEntries().length);
  });

  // Each placed file on its own: a missing or changed copy fails its own test.
  it.each(placed.map((entry) => [entry.id, entry] as const))('%s loads with its recorded statuses', (_id, entry) => {
    const recording = loadRecording(entry);
    expect(recording.interactions.length, entry.id).toBeGreaterThan(0);
    const statuses = recording.interactions.map((interaction) => interaction.response.status);
    if (entry.statuses) expect(statuses, entry.id).toEqual(entry.statuses);
    if (entry.hasFollowUp) expect(recording.interactions[1]?.request?.body, entry.id).toBeDefined();
  });

  // Not yet in the shared fixtures (or no fixtures beside this clone): the listing itself must
  // say where the file comes from, so it can be placed and checked (its data is tested once it is there).
  for (const entry of unplaced) {
    it(`${entry.id}: listed (placed: ${entry.placed}) with its source, commit, license and sha256`, () => {
      expect(entry.source.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(entry.source.path).not.toBe('');
      expect(entry.source.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(entry.source.license).not.toBe('');
      expect(entry.source.sha256).toMatch(/^[0-9a-f]{64}$/);
    });
  }
});
