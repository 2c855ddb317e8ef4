/**
 * Real recorded provider traffic, read in the format its source repository keeps it
 * (VCR cassettes in YAML, or one stream chunk per line) and turned into one shape:
 * a list of interactions, each a request the real API received and its response.
 *
 * The recordings are not in this repository: they live in the steering repo's
 * `shared/fixtures/recorded/<owner>+<repo>/<path>` (beside the repo root; CI has
 * it), or under `EPISODIC_SHARED_FIXTURES`. `manifest.json` here names each one's
 * source repository, path, commit and license.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load as loadYaml } from 'js-yaml';
import { realDataMode, sharedFixturesRoot } from '../support/shared-fixtures.js';

export type WireApi = 'anthropic-messages' | 'openai-responses' | 'openai-chat' | 'openai-compatible' | 'gemini';

/** One manifest row: what a recording shows and where it comes from. */
export interface RecordingEntry {
  id: string;
  wireApi: WireApi;
  provider: string;
  model: string;
  features: string[];
  hasFollowUp: boolean;
  statuses?: number[];
  notes?: string;
  /**
   * True when the file is in the shared fixtures (a missing or changed file is then a
   * failure); false for a file listed ahead of being placed there (its test is skipped, by name).
   */
  placed: boolean;
  source: { repo: string; path: string; commit: string; license: string; sha256: string; scrub?: string };
}

/** A recorded response: a JSON body, or a stream as the SSE text the server sent. */
export type RecordedResponse =
  | { status: number; kind: 'json'; body: unknown }
  | { status: number; kind: 'sse'; text: string };

export interface Interaction {
  /** The request the real API received (undefined when the source kept only the response). */
  request: { method: string; path: string; body: unknown } | undefined;
  response: RecordedResponse;
}

export interface Recording extends RecordingEntry {
  interactions: Interaction[];
}

const here = dirname(fileURLToPath(import.meta.url));

/** Every manifest row. */
export function recordingEntries(): RecordingEntry[] {
  const manifest = JSON.parse(readFileSync(join(here, 'manifest.json'), 'utf8')) as { recordings: RecordingEntry[] };
  return manifest.recordings;
}

/** Where a recording's source file is expected. */
export function recordingPath(entry: RecordingEntry): string {
  return join(sharedFixturesRoot(), 'recorded', entry.source.repo.replace('/', '+'), entry.source.path);
}

/**
 * Whether the suites run a recording here: every placed one (missing is a failure),
 * and one not yet placed when a staged copy is present (EPISODIC_SHARED_FIXTURES).
 * None on a clone without the shared fixtures (see ../support/shared-fixtures.ts).
 */
export function runsHere(entry: RecordingEntry): boolean {
  if (!realDataMode().run) return false;
  return entry.placed || existsSync(recordingPath(entry));
}

/** Why a recording listed as placed cannot be used: missing, or not the file the manifest lists. */
export class RecordingFileError extends Error {}

/**
 * Loads a recording in the one shape above. A placed file that is missing or whose
 * sha256 differs from the manifest's throws {@link RecordingFileError}, naming it.
 */
export function loadRecording(entry: RecordingEntry): Recording {
  const path = recordingPath(entry);
  if (!existsSync(path)) {
    throw new RecordingFileError(
      `${entry.id}: ${path} is missing; the shared fixtures (shared/fixtures/recorded/<owner>+<repo>/<path> beside the repo, ` +
        'or EPISODIC_SHARED_FIXTURES) must hold every recording the manifest marks placed',
    );
  }
  const bytes = readFileSync(path);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== entry.source.sha256) {
    throw new RecordingFileError(`${entry.id}: ${path} has sha256 ${sha256}, the manifest lists ${entry.source.sha256}`);
  }
  const text = bytes.toString('utf8');
  if (path.endsWith('.yaml') || path.endsWith('.yml')) return { ...entry, interactions: cassetteInteractions(text, path) };
  if (path.endsWith('.chunks.txt')) return { ...entry, interactions: chunkInteractions(text, entry.wireApi) };
  return { ...entry, interactions: [{ request: undefined, response: { status: 200, kind: 'json', body: JSON.parse(text) } }] };
}

interface CassetteInteraction {
  request: { method: string; uri: string; parsed_body?: unknown; body?: unknown };
  response: {
    status: { code: number };
    headers?: Record<string, string[]>;
    parsed_body?: unknown;
    body?: { string?: string };
  };
}

/** VCR cassettes: `interactions[]` with the request's `parsed_body` and the response's `parsed_body` or raw `body.string`. */
function cassetteInteractions(text: string, path: string): Interaction[] {
  const cassette = loadYaml(text) as { interactions?: CassetteInteraction[] };
  if (!Array.isArray(cassette.interactions)) throw new Error(`${path}: no interactions in the cassette`);
  return cassette.interactions.map(({ request, response }) => {
    const url = new URL(request.uri);
    const contentType = response.headers?.['content-type']?.[0] ?? '';
    const raw = response.body?.string;
    const recorded: RecordedResponse =
      response.parsed_body !== undefined
        ? { status: response.status.code, kind: 'json', body: response.parsed_body }
        : contentType.includes('event-stream') || raw?.trimStart().startsWith('data:') || raw?.startsWith('event:')
          ? { status: response.status.code, kind: 'sse', text: raw ?? '' }
          : { status: response.status.code, kind: 'json', body: JSON.parse(raw ?? 'null') };
    return {
      request: { method: request.method, path: `${url.pathname}${url.search}`, body: request.parsed_body },
      response: recorded,
    };
  });
}

/**
 * One stream chunk per line, as the Vercel AI SDK keeps them. Several consecutive
 * responses of one tool loop can share a file: a Responses stream ends at its
 * `response.completed` (or `.incomplete`/`.failed`) event.
 */
function chunkInteractions(text: string, wireApi: WireApi): Interaction[] {
  const chunks = text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
  const streams: Record<string, unknown>[][] = [[]];
  for (const chunk of chunks) {
    (streams.at(-1) as Record<string, unknown>[]).push(chunk);
    if (wireApi === 'openai-responses' && /^response\.(completed|incomplete|failed)$/.test(String(chunk.type)))
      streams.push([]);
    // Consecutive Anthropic responses of one tool loop share a file too: each ends at `message_stop`.
    if (wireApi === 'anthropic-messages' && chunk.type === 'message_stop') streams.push([]);
  }
  return streams
    .filter((stream) => stream.length > 0)
    .map((stream) => ({ request: undefined, response: { status: 200, kind: 'sse', text: sseText(stream, wireApi) } }));
}

/** Frames chunks the way each API streams them. */
function sseText(chunks: readonly Record<string, unknown>[], wireApi: WireApi): string {
  // Anthropic, like Responses, names each event: the SDK reads the `event:` line.
  if (wireApi === 'openai-responses' || wireApi === 'anthropic-messages')
    return chunks.map((chunk) => `event: ${String(chunk.type)}\ndata: ${JSON.stringify(chunk)}\n\n`).join('');
  const body = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('');
  return wireApi === 'gemini' ? body : `${body}data: [DONE]\n\n`;
}
