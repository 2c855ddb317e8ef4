/**
 * The real recordings load, and each one is what its manifest row says it is.
 */
import { describe, expect, it } from 'vitest';
import { loadRecording, missingRecordings, recordingEntries } from './recordings.js';

const missing = missingRecordings();

describe('real recorded provider traffic', () => {
  it('names a source repository, commit and permissive license for every recording', () => {
    for (const entry of recordingEntries()) {
      expect(entry.source.commit, entry.id).toMatch(/^[0-9a-f]{40}$/);
      expect(['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', 'CC0-1.0'], entry.id).toContain(entry.source.license);
    }
  });

  it.skipIf(missing !== undefined)(`loads every recording with its recorded statuses${missing ? ` (skipped: ${missing})` : ''}`, () => {
    for (const entry of recordingEntries()) {
      const recording = loadRecording(entry);
      expect(recording.interactions.length, entry.id).toBeGreaterThan(0);
      const statuses = recording.interactions.map((interaction) => interaction.response.status);
      if (entry.statuses) expect(statuses, entry.id).toEqual(entry.statuses);
      if (entry.hasFollowUp) expect(recording.interactions[1]?.request?.body, entry.id).toBeDefined();
    }
  });
});
