/**
 * What the file store loads besides the transcript: the pack state and the reasoning
 * sidecar are validated, and a bad or newer file fails with a PersistedFormatError
 * naming the file and the field, never a cast.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EpisodicError } from '../errors/episodic-error.js';
import { PersistedFormatError } from '../errors/input-errors.js';
import type { Message } from '../message/message.js';
import { FileSessionStore } from './file-session-store.js';

const user: Message = { role: 'user', content: 'CI is red' };
let directory: string;
let store: FileSessionStore;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'episodic-formats-'));
  store = new FileSessionStore({ directory, sync: false });
  await store.append('s', [user]);
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function loadError(): Promise<PersistedFormatError> {
  const error = await store.load('s').then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PersistedFormatError);
  expect(EpisodicError.isInstance(error)).toBe(true);
  return error as PersistedFormatError;
}

describe('FileSessionStore pack state', () => {
  const path = () => store.statePath('s');

  it('names the field that does not match version 1', async () => {
    await writeFile(path(), '{"version":1,"evictedEpisodes":"3"}');
    const error = await loadError();
    expect(error).toMatchObject({ code: 'invalid_session_state', file: path(), field: 'evictedEpisodes', line: undefined });
    expect(error.message).toBe(
      `${path()}: evictedEpisodes must be number (got string); it is not a valid version 1 pack state: ` +
        'delete it (the packer rebuilds its state from the transcript).',
    );
  });

  it('names a field deep inside the state', async () => {
    await writeFile(path(), '{"version":1,"evictedEpisodes":0,"previous":{"prefixKey":"k","messageKeys":["a",7]}}');
    expect(await loadError()).toMatchObject({ field: 'previous.messageKeys[1]' });
  });

  it('refuses a state from a newer version, saying to upgrade', async () => {
    await writeFile(path(), '{"version":2,"evictedEpisodes":0,"shape":"new"}');
    const error = await loadError();
    expect(error).toMatchObject({ code: 'invalid_session_state', file: path(), field: 'version' });
    expect(error.message).toMatch(/is a version 2 pack state, written by a newer version of Episodic; this one reads version 1: upgrade Episodic, or delete it/);
  });

  it('refuses a state without a version and a file that is not JSON', async () => {
    await writeFile(path(), '{"evictedEpisodes":0}');
    expect(await loadError()).toMatchObject({ field: 'version', message: expect.stringMatching(/version must be one of 1/) });
    await writeFile(path(), '{"version":1,"evictedEp');
    expect(await loadError()).toMatchObject({ field: undefined, message: expect.stringMatching(/is not valid JSON/) });
  });

  it('loads a valid state and drops fields the packer does not know', async () => {
    await writeFile(path(), '{"version":1,"evictedEpisodes":2,"summary":{"episodes":2,"text":"Earlier."},"later":true}');
    expect((await store.load('s'))?.packState).toEqual({ version: 1, evictedEpisodes: 2, summary: { episodes: 2, text: 'Earlier.' } });
  });
});

describe('FileSessionStore reasoning sidecar', () => {
  const path = () => store.sidecarPath('s');
  const sidecar = (part: unknown, version = 1) =>
    JSON.stringify({ version, episodeStart: 0, entries: [{ index: 1, fingerprint: 'f', parts: [{ position: 0, part }] }] });

  it('checks the reasoning parts like transcript parts and names the field', async () => {
    await writeFile(path(), sidecar({ type: 'text', text: 'not reasoning' }));
    const error = await loadError();
    expect(error).toMatchObject({ code: 'invalid_reasoning_sidecar', file: path(), field: 'entries[0].parts[0].part.type' });
    expect(error.message).toMatch(/entries\[0\]\.parts\[0\]\.part\.type must be one of "reasoning"; it is not a valid version 1 reasoning sidecar: delete it/);
  });

  it('refuses a sidecar from a newer version', async () => {
    await writeFile(path(), sidecar({ type: 'reasoning', text: 'why' }, 3));
    expect(await loadError()).toMatchObject({ code: 'invalid_reasoning_sidecar', field: 'version', message: expect.stringMatching(/upgrade Episodic/) });
  });

  it('keeps opaque data and unknown fields of the parts', async () => {
    const part = { type: 'reasoning', text: '', redacted: true, providerData: { provider: 'anthropic', model: 'm', data: 'opaque' }, later: 1 };
    await writeFile(path(), sidecar(part));
    expect((await store.load('s'))?.reasoningSidecar?.entries[0]?.parts[0]?.part).toEqual(part);
  });
});
