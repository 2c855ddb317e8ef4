/**
 * The importers and `episodic budget` on real recorded sessions (Claude Code, Codex
 * CLI, pi, Gemini CLI, aider; public MIT-licensed repositories, listed with source, commit and license in
 * test/fixtures/sessions/). The files are not in this repository: they are read from
 * `$EPISODIC_SHARED_FIXTURES/sessions`, else from `../shared/fixtures/sessions` beside
 * the clone; a clone without them runs only the listing checks (see
 * test/support/shared-fixtures.ts). Each must import, read back as a transcript, replay, and report; its
 * replayed input must come within 10% of the recorded input on (nearly) every call
 * once the missing prefix is inferred.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { formatTranscript } from '@episodic/core/transcript';
import { readTranscript } from '@episodic/core/node';
import { describe, expect, it } from 'vitest';
import { analyzeBudgets, ImplausiblePrefixError } from '../packages/cli/src/budget/analyze-budgets.js';
import { formatBudgetReport } from '../packages/cli/src/budget/format-budget.js';
import { choosePricedModel } from '../packages/cli/src/budget/priced-model.js';
import { loadPrices } from '../packages/cli/src/budget/pricing.js';
import { type ImportResult, type ImportSource, LossyImportError } from '../packages/cli/src/import/import-result.js';
import { importSession } from '../packages/cli/src/import/import-session.js';
import { prefixLimit } from '../packages/cli/src/import/known-prefixes.js';
import { detectRecordingFile } from '../packages/cli/src/import/detect-source.js';
import { runCli } from '../packages/cli/src/testing/cli-harness.js';
import { renderBudgetReport } from '../packages/cli/src/report/budget-report.js';
import { realDataMode, sharedFixturesRoot } from './support/shared-fixtures.js';

interface ManifestFile {
  file: string;
  agent: ImportSource;
  sha256: string;
  /** False for a file listed ahead of being placed in the shared fixtures: only its listing is checked. */
  placed: boolean;
  /** Where the file comes from. */
  source: { repo: string; path: string; commit: string; license: string };
}

const repository = resolve(import.meta.dirname, '..');
const root = join(sharedFixturesRoot(), 'sessions');

const manifest = JSON.parse(
  await readFile(join(repository, 'test/fixtures/sessions/manifest.json'), 'utf8'),
) as { files: ManifestFile[] };

/** What each recording must show beyond loading: its awkward parts, read right. */
const facts: Record<string, (result: ImportResult) => void> = {
  'claude-code/ccviewer-v1098-inline-sidechains.jsonl': (result) => {
    expect(result.dropped.find((item) => item.what === 'sub-agent lines (isSidechain)')?.count).toBe(405);
  },
  'claude-code/pai-opus45-two-compactions.jsonl': (result) => {
    const compactions = result.messages.filter((message) => message.role === 'user' && message.compaction);
    expect(compactions).toHaveLength(2);
    // 227 assistant lines, 90 distinct responses.
    expect(result.messages.filter((message) => message.role === 'assistant')).toHaveLength(90);
  },
  'claude-code/pai-sidechain-agent-sonnet45.jsonl': (result) => {
    expect(result.messages.filter((message) => message.role === 'assistant').length).toBeGreaterThan(0);
    expect(result.dropped.some((item) => item.what.startsWith('sub-agent'))).toBe(false);
  },
  'codex/moonmind-gpt51-codex-ghost-snapshot.jsonl': (result) => {
    expect(result.dropped.map((item) => item.what)).toContain('ghost_snapshot items');
  },
  'codex/openprintkit-cli034-no-turn-context.jsonl': (result) => {
    expect(result.messages.some((message) => message.role === 'assistant' && message.model)).toBe(false);
    expect(result.provider).toBe('openai');
  },
  'pi/pi-mono-compact-torn-line-v1.jsonl': (result) => {
    // The torn last line holds a message and a compaction: both are read.
    expect(result.messages.at(-1)).toMatchObject({ role: 'user', compaction: { keptMessages: 0 } });
  },
  'claude-code/omp-2219-starts-at-compaction-queued-prompts.jsonl': (result) => {
    // Begins at a compaction boundary whose parent is in an earlier file: complete, from the summary on.
    expect(result.messages[0]).toMatchObject({ role: 'user', compaction: { keptMessages: 0 } });
    expect(result.dropped.map((item) => item.what)).toContain('history summarised before the file');
  },
  'claude-code/agentv-2162-hook-progress-167.jsonl': (result) => {
    expect(result.dropped.find((item) => item.what === 'progress lines')?.count).toBe(167);
  },
  'codex/agentv-cli0140-tool-search-replacement-compaction.jsonl': (result) => {
    const compaction = result.messages.find((message) => message.role === 'user' && message.compaction);
    expect(JSON.stringify(compaction?.content)).toContain('AGENTS.md instructions');
    expect(result.messages.some((message) => message.role === 'tool' && message.toolName === 'tool_search')).toBe(true);
  },
  'pi/openclaw-v3-model-hopping-errors.jsonl': (result) => {
    expect(result.dropped.find((item) => item.what === 'entries on another branch')?.count).toBeGreaterThan(100);
  },
};

/**
 * Share of calls that must come within 10% of the recorded input. Lower where the
 * recording itself explains it: in the aborted-turn rollout the interrupted turn's
 * output seems not sent as recorded; the OpenClaw session ran on a local server that
 * cut every prompt to 4,096 tokens (the report says so).
 */
/**
 * Files that are incomplete in themselves: importing them leaves out conversation
 * content, so without `--lossy` the import is an error (checked), and with it the
 * rest is read.
 */
const lossy: Record<string, string> = {
  'claude-code/pai-opus45-thinking-short.jsonl':
    "starts mid-session: its first line's parent is not in the file, and its first tool result answers a call made before",
  'pi/openclaw-v3-202d06d4.jsonl': 'OpenClaw recorded the error result of a call it never recorded ("cron list", line 25)',
  'claude-code/entire-2112-slice-under-limit.jsonl': 'a checkpoint slice: line 18 names a parent that is not in the file',
  'claude-code/entire-215-slice-incomplete.jsonl': 'a checkpoint slice: line 1 names a parent that is not in the file',
  'claude-code/entire-217-slice-with-compaction.jsonl': 'a checkpoint slice: line 1 names a parent that is not in the file',
};
/** Lossy files whose recorded usage shows the missing history (the others lose a line, not the context). */
const incompleteFiles = new Set([
  'claude-code/pai-opus45-thinking-short.jsonl',
  'claude-code/entire-215-slice-incomplete.jsonl',
  // Only the 6 calls before its compaction are flagged: the summary replaces the missing history.
  'claude-code/entire-217-slice-with-compaction.jsonl',
]);

const minimumWithin: Record<string, number> = {
  'codex/moonmind-gpt5-codex-aborted-turn.jsonl': 0.9,
  'pi/openclaw-v3-five-compactions.jsonl': 0.25,
  // aider logs neither the files added to the chat (sent with every call) nor the summary it sends in place of
  // older history once that passes its limit: the calls after either are off.
  'aider/mozgoslav-aider0862-lmstudio-qwen.md': 0.5,
};

/** Every prompt a person typed while Claude Code worked (a `queued_command` from a human) is a user turn of the import. */
function expectQueuedPromptsKept(text: string, result: ImportResult): void {
  const typed = new Set(
    result.messages.flatMap((message) => (message.role === 'user' && message.injected !== true && typeof message.content === 'string' ? [message.content] : [])),
  );
  for (const line of text.split('\n')) {
    if (!line.includes('"queued_command"')) continue;
    const attachment = (JSON.parse(line) as { attachment?: { type?: string; prompt?: unknown; origin?: { kind?: string } } }).attachment;
    if (attachment?.type !== 'queued_command' || attachment.origin?.kind !== 'human' || typeof attachment.prompt !== 'string') continue;
    expect(typed.has(attachment.prompt), `queued prompt kept as a user turn: ${attachment.prompt.slice(0, 60)}`).toBe(true);
  }
}

describe('real recorded sessions', () => {
  // A file not yet placed runs when a staged copy is present (EPISODIC_SHARED_FIXTURES);
  // none runs on a clone without the shared fixtures (the run says so once).
  const runsHere = (entry: ManifestFile) => realDataMode().run && (entry.placed || existsSync(join(root, entry.file)));
  for (const entry of manifest.files.filter((listed) => !runsHere(listed))) {
    // Its data is tested once placed or staged; until then the listing must say where it comes from.
    it(`${entry.file}: listed (placed: ${entry.placed}) with its source, commit, license and sha256`, () => {
      expect(entry.source.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(entry.source.path).not.toBe('');
      expect(entry.source.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(entry.source.license).not.toBe('');
      expect(entry.sha256).toMatch(/^[0-9a-f]{64}$/);
    });
  }
  // Each placed file on its own: a missing or changed copy fails its own test.
  it.each(manifest.files.filter(runsHere))(
    '$file imports, reads back, replays within 10% of the recorded input and reports',
    async (entry) => {
      const file = join(root, entry.file);
      expect(existsSync(file), `${file} is missing: the shared fixtures must hold every session the manifest marks placed`).toBe(true);
      const bytes = await readFile(file);
      expect(createHash('sha256').update(bytes).digest('hex'), `${file} is not the file the manifest lists`).toBe(entry.sha256);

      if (lossy[entry.file] !== undefined) {
        await expect(importSession(entry.agent, file, Readable.from(['']))).rejects.toBeInstanceOf(LossyImportError);
      }
      const result = await importSession(entry.agent, file, Readable.from(['']), { lossy: lossy[entry.file] !== undefined });
      expect(result.dropped.filter((item) => item.lossy === true).length > 0).toBe(lossy[entry.file] !== undefined);
      // The import reconciles itself with the recorded usage: an incomplete file is flagged, the others are not.
      const incomplete = result.reconciliation?.incomplete.length ?? 0;
      if (!incompleteFiles.has(entry.file)) expect(incomplete, 'calls the transcript cannot account for').toBe(0);
      else expect(incomplete, 'an incomplete file has calls its transcript cannot account for').toBeGreaterThan(0);
      // Nothing with a role is dropped without an error: a drop of conversation content is marked lossy.
      expect(result.dropped.every((item) => item.lossy === true || !/^messages of (role|type)/.test(item.what))).toBe(true);
      expect(result.messages.length).toBeGreaterThan(0);
      const text = formatTranscript(result.messages);
      expect(await readTranscript(Readable.from([text]), { file: entry.file })).toHaveLength(result.messages.length);
      facts[entry.file]?.(result);
      if (entry.agent === 'claude-code') expectQueuedPromptsKept(bytes.toString('utf8'), result);

      const prices = await loadPrices(undefined);
      const priced = choosePricedModel(undefined, result.messages, prices, result.provider);
      // An agent that leaves earlier reasoning out itself (aider) is billed without it, whatever the model.
      const model = { ...priced, pastReasoning: result.pastReasoning ?? priced.pastReasoning };
      const limit = prefixLimit(entry.agent, result.agentVersion, result.prefixShown);
      const input = {
        source: entry.file,
        messages: result.messages,
        budgets: [Math.max(model.contextWindow, 200_000)],
        retentions: ['episode' as const],
        prefixRecorded: result.prefixRecorded,
        model,
        pricesCollected: prices.collected,
        quality: 0.99,
        prefixLimit: limit,
      };
      if (incompleteFiles.has(entry.file)) {
        // The missing history is not passed off as a giant system prompt.
        expect(() => analyzeBudgets(input)).toThrow(ImplausiblePrefixError);
        return;
      }
      const analysis = analyzeBudgets(input);
      const fidelity = analysis.fidelity!;
      expect(fidelity.calls.length).toBeGreaterThan(0);
      expect(fidelity.withinShare).toBeGreaterThanOrEqual(minimumWithin[entry.file] ?? 0.99);
      if (entry.file === 'pi/openclaw-v3-five-compactions.jsonl') {
        expect(fidelity.notes.join(' ')).toContain('exactly 4096 tokens');
      }
      expect(analysis.prefix.inference?.inferred).toBe(true);
      const report = formatBudgetReport(analysis);
      expect(report).toContain("inferred from the first call's reported input");
      expect(report).toMatch(/\nRecommendation: /);
      const html = renderBudgetReport(analysis);
      expect(html).toContain('id="chart-sweep"');
      expect(html).toContain('id="chart-fidelity"');
    },
    120_000,
  );
});

describe('real recorded sessions given where a transcript is read', () => {
  const present = realDataMode().run ? manifest.files.filter((entry) => existsSync(join(root, entry.file))) : [];
  if (present.length === 0) {
    // On a clone without the shared fixtures there is nothing to give (the run says so once); with them, an empty list is a fault.
    it('has recordings to give unless the real-data suites step aside', () => {
      expect(realDataMode().run).toBe(false);
    });
  }
  it.each(present)('$file is recognised, and `episodic budget` names its import instead of repair', async (entry) => {
    const file = join(root, entry.file);
    expect(await detectRecordingFile(file)).toBe(entry.agent);
    const output = await runCli(['budget', file]);
    expect(output.code).toBe(1);
    expect(output.stderr).toContain(`episodic budget --from ${entry.agent} `);
    expect(output.stderr).not.toContain('repair');
  });
});
