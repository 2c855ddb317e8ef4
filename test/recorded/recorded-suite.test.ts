/**
 * Every adapter on real recorded provider traffic (see README.md here): each
 * recording runs recorded response -> adapter (its official SDK client against the
 * replay server on 127.0.0.1) -> transcript -> the follow-up request the adapter
 * builds, compared with the one the real API accepted. The recordings are public
 * data kept outside this repository: a recording marked placed that is missing or
 * changed fails its own test; one marked not placed is skipped by name.
 */
import type { AssistantMessage, Message } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { expectations, foldQuotes } from './recorded-expectations.js';
import { isModelCall } from './recorded-wire.js';
import {
  adapterFor,
  callAdapter,
  checkReasoningWeight,
  checkRecordedError,
  checkSignaturesLeave,
  checkKeptWhole,
  checkTranscript,
  followUpTurn,
  turnWith,
  wireOf,
} from './recorded-run.js';
import { loadRecording, recordingEntries, runsHere } from './recordings.js';
import { startReplayServer } from './replay-server.js';
import { realDataMode } from '../support/shared-fixtures.js';

const usable = recordingEntries().filter((entry) => expectations[entry.id]?.skip === undefined);
const entries = usable.filter(runsHere);

describe('adapters on real recorded provider traffic', () => {
  it('holds expectations only for recordings the manifest lists', () => {
    const listed = new Set(recordingEntries().map((entry) => entry.id));
    for (const id of Object.keys(expectations)) expect(listed.has(id), id).toBe(true);
  });

  // On a clone without the shared fixtures there is nothing to count (the run says so once).
  if (realDataMode().run) it('runs at least 25 recordings across every wire API', () => {
    expect(entries.length).toBeGreaterThanOrEqual(25);
    expect(new Set(entries.map((entry) => entry.wireApi)).size).toBe(5);
  });

  it.each(entries.map((entry) => [entry.id, entry] as const))('%s', async (_id, entry) => {
    const recording = loadRecording(entry);
    const interactions = recording.interactions.filter((interaction) => isModelCall(interaction.request?.path));
    const expected = expectations[entry.id] ?? {};
    const wire = wireOf(entry);
    const server = await startReplayServer(interactions, entry.wireApi);
    try {
      const adapter = adapterFor(entry, server.url);
      let messages: Message[] = wire.start(interactions[0]?.request?.body ?? {});
      let previous: AssistantMessage | undefined;
      let followUps = 0;
      for (const [index, interaction] of interactions.entries()) {
        const recorded = interaction.request?.body;
        if (index > 0 && recorded !== undefined) {
          const turn = previous ? turnWith(wire, recorded, wire.keysOf(previous)) : undefined;
          if (previous && turn && expected.followUp !== 'not-comparable') {
            // Continue as the recorded conversation did: tool results, the next question.
            messages = [...messages, ...wire.after(recorded, turn.end)];
            const ours = followUpTurn(adapter, wire, messages, previous);
            const theirs = expected.recordedTurn?.(turn.turn, ours) ?? turn.turn;
            const fold = expected.foldedQuotes === undefined ? (turn: unknown) => turn : foldQuotes;
            expect(fold(ours), `follow-up ${index}: the turn the adapter sends back`).toEqual(fold(theirs));
            followUps += 1;
          } else messages = wire.start(recorded);
        }
        const result = await callAdapter(adapter, { messages });
        const response = interaction.response;
        if (response.status >= 400) {
          checkRecordedError(result, response.kind === 'json' ? response.body : response.text);
          previous = undefined;
          continue;
        }
        const answer = wire.answer(response);
        if (answer.fails) {
          checkRecordedError(result, { error: { message: answer.streamError } });
          previous = undefined;
          continue;
        }
        const deltas = expected.trimmedDeltas === undefined;
        const usage = expected.unknownUsage === undefined;
        checkTranscript(result, answer, { combineReasoning: entry.wireApi === 'gemini', deltas, usage });
        if (result.message && usage) checkReasoningWeight(result.message, answer.usage.reasoningTokens);
        expected.check?.(result, index);
        previous = result.message;
        if (previous) messages = [...messages, previous];
        if (previous) checkKeptWhole(adapter, wire, messages, answer);
      }
      if (entry.hasFollowUp && expected.followUp !== 'not-comparable') expect(followUps).toBeGreaterThan(0);
      if (entry.wireApi === 'gemini') checkSignaturesLeave(messages);
      expected.after?.(server.received);
    } finally {
      await server.close();
    }
  });
});
