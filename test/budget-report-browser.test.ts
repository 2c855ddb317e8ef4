/**
 * The HTML report of `episodic budget --html` in a real headless browser (Debian's
 * chromium, driven by playwright-core, which downloads no browser of its own): the
 * page loads offline without console errors or network requests, its charts (the
 * budget sweep, replayed against reported input, and the per-call charts) draw
 * pixels, it shows the prefix inferred from the recorded usage, and its table shows
 * the figures `--json` prints. A screenshot goes to test-output/ for a person to look
 * at. Without chromium the suite fails (CI installs it).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTokenCounter, userText } from '@episodic/core';
import { splitEpisodes } from '@episodic/core/transcript';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderEpisodesReport } from '../packages/cli/src/report/episodes-report.js';
import { countSections } from '../packages/cli/src/section-tokens.js';
import { budgetSession } from '../packages/cli/src/testing/budget-sessions.js';
import { fixtureDir, runCli, transcriptText } from '../packages/cli/src/testing/cli-harness.js';
import { formatCount } from '../packages/cli/src/text-table.js';
import { type ChromiumSession, launchChromium, requireChromium, watchPage } from './support/chromium.js';

const screenshotPath = resolve('test-output/budget-report.png');
const episodesScreenshotPath = resolve('test-output/episodes-report.png');

interface JsonRun {
  budget: number;
  retention: string;
  inputTokens: number;
  shortenedCalls: number;
}

// The probes run in the page; they are source text because this project's type-check
// has no DOM library.
interface CanvasInfo {
  id: string;
  width: number;
  height: number;
  /** Pixels with any opacity. */
  painted: number;
}
const canvasProbe = `Array.from(document.querySelectorAll('canvas')).map((canvas) => {
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let painted = 0;
  for (let index = 3; index < data.length; index += 4) if (data[index] > 0) painted += 1;
  return { id: canvas.id, width: canvas.width, height: canvas.height, painted };
})`;

/** Pixels of a canvas within a small distance of an RGB colour. */
function colourProbe(id: string, [red, green, blue]: [number, number, number]): string {
  return `(() => {
    const canvas = document.getElementById(${JSON.stringify(id)});
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let index = 0; index < data.length; index += 4) {
      if (Math.abs(data[index] - ${red}) + Math.abs(data[index + 1] - ${green}) + Math.abs(data[index + 2] - ${blue}) < 30 && data[index + 3] > 200) count += 1;
    }
    return count;
  })()`;
}

interface TableRow {
  budget: number;
  retention: string;
  cells: string[];
}
const tableProbe = `Array.from(document.querySelectorAll('table.runs tr[data-budget]')).map((row) => ({
  budget: Number(row.getAttribute('data-budget')),
  retention: row.getAttribute('data-retention'),
  cells: Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent),
}))`;

describe('budget HTML report in headless chromium', () => {
  let fixtures: Awaited<ReturnType<typeof fixtureDir>>;
  let reportFile: string;
  let runs: JsonRun[];
  let inferredPrefix: number;
  let browser: ChromiumSession | undefined;

  beforeAll(async () => {
    requireChromium();
    fixtures = await fixtureDir();
    // Usage on every call, with the cache reported cold on every fourth, so the
    // reported series has something to show.
    const messages = budgetSession({
      episodes: 5,
      steps: 4,
      resultWords: 500,
      system: 'You debug CI failures: read the log, find the failing step, explain the cause.',
      usage: (call) => ({
        inputTokens: 3000 + call * 400,
        cachedInputTokens: call % 4 === 0 ? 0 : 2000,
        outputTokens: 90,
      }),
    });
    // The file name lands in the page's title and heading: markup in it must stay text.
    const transcript = await fixtures.write(
      'session<img src=x onerror="window.injected=true">.jsonl',
      transcriptText(messages),
    );
    reportFile = fixtures.path('report.html');
    const result = await runCli([
      'budget',
      transcript,
      '--budgets',
      '8k,16k,32k',
      '--retention',
      'episode,all',
      '--json',
      '--html',
      reportFile,
    ]);
    expect(result.stderr).toContain('Wrote the HTML report');
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as { runs: JsonRun[]; prefix: { inference: { prefixTokens: number } } };
    runs = json.runs;
    inferredPrefix = json.prefix.inference.prefixTokens;
  });

  afterAll(async () => {
    await browser?.close();
    await fixtures?.cleanup();
  });

  /** Opens a file in a fresh page and waits for its script to finish; collects errors and requests. */
  async function open(file: string): Promise<{ page: Page; errors: string[]; requests: string[]; url: string }> {
    browser ??= await launchChromium({ viewport: { width: 1280, height: 900 } });
    const page = await browser.context.newPage();
    const { errors, requests } = watchPage(page);
    const url = pathToFileURL(file).href;
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
    return { page, errors, requests, url };
  }

  it('renders the charts and the table offline, without console errors', async () => {
    const { page, errors, requests, url } = await open(reportFile);
    {
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
      expect(await page.evaluate('window.injected')).toBeUndefined();

      const canvases = await page.evaluate<CanvasInfo[]>(canvasProbe);
      expect(canvases.map((canvas) => canvas.id).sort()).toEqual([
        'chart-cache',
        'chart-cost',
        'chart-fidelity',
        'chart-sections',
        'chart-sweep',
      ]);
      for (const canvas of canvases) {
        expect(canvas.width).toBeGreaterThan(100);
        // Axes, labels and data: a blank canvas has no painted pixel at all.
        expect(canvas.painted, canvas.id).toBeGreaterThan(canvas.width * 5);
      }
      // The bars themselves: pixels in the current-episode colour, which no axis uses.
      expect(await page.evaluate<number>(colourProbe('chart-sections', [217, 130, 43]))).toBeGreaterThan(500);
      // The sweep: a line per retention (blue, orange) and the recommended run's green marker.
      for (const colour of [[53, 102, 168], [217, 130, 43], [59, 125, 59]] as [number, number, number][]) {
        expect(await page.evaluate<number>(colourProbe('chart-sweep', colour)), String(colour)).toBeGreaterThan(40);
      }
      // Replayed (blue, dashed) against reported (red) input per call.
      expect(await page.evaluate<number>(colourProbe('chart-fidelity', [168, 58, 90]))).toBeGreaterThan(200);
      const prefix = await page.evaluate<string>(
        "Array.from(document.querySelectorAll('p.prefix')).map((node) => node.textContent).join(' ')",
      );
      expect(prefix).toContain(`inferred from the first call's reported input: ${formatCount(inferredPrefix)} tokens`);

      const rows = await page.evaluate<TableRow[]>(tableProbe);
      expect(rows.map(({ budget, retention }) => ({ budget, retention }))).toEqual(
        runs.map(({ budget, retention }) => ({ budget, retention })),
      );
      rows.forEach((row, index) => {
        expect(row.cells[2]).toBe(formatCount(runs[index]!.inputTokens));
        expect(row.cells[5]).toBe(formatCount(runs[index]!.shortenedCalls));
      });
      const options = await page.evaluate<number>("document.querySelectorAll('#run-select option').length");
      expect(options).toBe(runs.length);

      await mkdir(resolve('test-output'), { recursive: true });
      await page.screenshot({ path: screenshotPath, fullPage: true });
      console.log(`budget report screenshot: ${screenshotPath}`);
    }
  });

  it('shows the episodes of a session on the same kind of page', async () => {
    const messages = budgetSession({ episodes: 4, steps: 3, resultWords: 200 });
    const counter = createTokenCounter();
    const episodes = splitEpisodes(messages).map((episode) => ({
      index: episode.index,
      preamble: episode.preamble,
      firstUserText: episode.messages[0]?.role === 'user' ? userText(episode.messages[0]) : '',
      messages: episode.messages.length,
      steps: episode.messages.filter((message) => message.role === 'assistant').length,
      toolCalls: episode.messages.filter((message) => message.role === 'tool').length,
      tokens: countSections(episode.messages, counter),
    }));
    const file = fixtures.path('episodes.html');
    await writeFile(
      file,
      renderEpisodesReport({
        source: 'session.jsonl',
        systemTokens: 0,
        episodes,
        total: countSections(messages, counter),
      }),
    );
    const { page, errors, requests, url } = await open(file);
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    const [canvas] = await page.evaluate<CanvasInfo[]>(canvasProbe);
    expect(canvas?.id).toBe('chart-episodes');
    expect(await page.evaluate<number>(colourProbe('chart-episodes', [217, 130, 43]))).toBeGreaterThan(500);
    expect(await page.evaluate<number>("document.querySelectorAll('table.episodes tr[data-episode]').length")).toBe(4);
    await page.screenshot({ path: episodesScreenshotPath, fullPage: true });
    console.log(`episodes report screenshot: ${episodesScreenshotPath}`);
  });
});
