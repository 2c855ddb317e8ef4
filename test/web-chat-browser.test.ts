/**
 * The web chat example in a real headless browser (Debian's chromium, driven by
 * playwright-core, which downloads no browser of its own): a person types a
 * question, watches the reasoning stream and collapse, the tool calls and the
 * answer arrive, and asks a follow-up that continues the same Episodic session.
 * A screenshot goes to test-output/ for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPage } from '../examples/web-chat/src/build-page.js';
import { type ChatServer, startChatServer } from '../examples/web-chat/src/chat-server.js';
import { createDemoAgent } from '../examples/web-chat/src/demo-agent.js';
import { type ChromiumSession, launchChromium, watchPage } from './support/chromium.js';

const screenshotPath = resolve('test-output/web-chat.png');

// Records, in the page, whether a reasoning part was ever shown open while streaming.
// The probes are source text because this project's type-check has no DOM library.
const watchReasoning = `new MutationObserver(() => {
  for (const details of document.querySelectorAll('details.reasoning')) {
    if (details.open && details.dataset.state === 'streaming') window.reasoningShownOpen = true;
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });`;

interface RenderedPart {
  kind: string;
  state?: string;
  open?: boolean;
  tool?: string;
  text: string;
}
const partsProbe = (index: number) => `Array.from(document.querySelectorAll('.message.assistant')[${index}].querySelector('.parts').children).map((node) => ({
  kind: node.matches('details.reasoning') ? 'reasoning' : node.matches('.tool') ? 'tool' : node.matches('hr') ? 'step' : 'text',
  state: node.dataset.state,
  open: node.open,
  tool: node.dataset.tool,
  text: node.textContent,
}))`;

describe('web chat example in headless chromium', () => {
  let server: ChatServer;
  let browser: ChromiumSession | undefined;

  beforeAll(async () => {
    await buildPage();
    // Slower than the demo's default, so the reasoning is on screen for several frames.
    server = await startChatServer({
      agent: createDemoAgent({ offline: { latencyMs: 60, chunkSize: 6, deltaDelayMs: 30 } }),
      port: 0,
    });
    browser = await launchChromium({
      viewport: { width: 1100, height: 1400 },
      // The page's CSP forbids eval, which the probes below use; the page itself runs under it unchanged.
      bypassCSP: true,
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 30_000);

  /** Types a message, sends it, and waits until the assistant's answer has finished. */
  async function ask(page: Page, text: string, answers: number): Promise<void> {
    await page.fill('#prompt', text);
    await page.press('#prompt', 'Enter');
    await page.waitForFunction(
      `document.querySelectorAll('.message.assistant').length === ${answers} && document.body.dataset.status === 'ready'`,
      undefined,
      { timeout: 40_000 },
    );
  }

  it('streams reasoning that collapses, tool calls and the answer, then continues the session', async () => {
    const page = await browser!.context.newPage();
    const { errors, requests } = watchPage(page);
    await page.addInitScript(watchReasoning);
    await page.goto(server.url);
    await page.waitForSelector('body[data-status="ready"]');

    await ask(page, 'What is this project?', 1);
    expect(await page.evaluate('window.reasoningShownOpen')).toBe(true);
    const first = await page.evaluate<RenderedPart[]>(partsProbe(0));
    expect(first.map((part) => part.kind)).toEqual([
      'step', 'reasoning', 'tool',
      'step', 'reasoning', 'tool',
      'step', 'reasoning', 'text',
    ]);
    for (const part of first.filter((item) => item.kind === 'reasoning')) {
      expect(part).toMatchObject({ state: 'done', open: false });
    }
    const tools = first.filter((part) => part.kind === 'tool');
    expect(tools.map((tool) => [tool.tool, tool.state])).toEqual([
      ['list_files', 'output-available'],
      ['read_file', 'output-available'],
    ]);
    expect(tools[0]!.text).toContain('src/queue.js');
    expect(tools[1]!.text).toContain('read_file({"path":"README.md"})');
    expect(first.at(-1)!.text).toContain('README.md has 10 lines');

    await ask(page, 'What about src/queue.js?', 2);
    const second = await page.evaluate<RenderedPart[]>(partsProbe(1));
    const read = second.find((part) => part.tool === 'read_file');
    expect(read?.text).toContain('export class Queue');
    expect(second.at(-1)!.text).toContain('src/queue.js has 43 lines');
    // The server kept one session: the first question's reasoning was dropped from the packed context.
    const meta = await page.textContent('.message.assistant:nth-of-type(4) .meta');
    expect(meta).toMatch(/3 past reasoning parts dropped/);
    expect(meta).toMatch(/3 model calls/);

    expect(errors).toEqual([]);
    expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
    // A collapsed thought opens on a click, and stays open: the renderer updates parts in place.
    await page.click('.message.assistant:nth-of-type(4) details.reasoning summary');
    expect(await page.evaluate(`document.querySelectorAll('.message.assistant')[1].querySelector('details.reasoning').open`)).toBe(true);

    await mkdir(resolve('test-output'), { recursive: true });
    // The whole conversation in one frame (the composer sticks to the bottom of the window).
    const height = await page.evaluate<number>('document.documentElement.scrollHeight');
    await page.setViewportSize({ width: 1100, height });
    await page.screenshot({ path: screenshotPath });
    console.log(`web chat screenshot: ${screenshotPath}`);
  }, 90_000);

  it('asks for approval before saving a note, resumes on Approve, and says so on Reject', async () => {
    const page = await browser!.context.newPage();
    const { errors } = watchPage(page);
    await page.goto(server.url);
    await page.waitForSelector('body[data-status="ready"]');
    await page.fill('#prompt', 'Remember: ship on Friday');
    await page.press('#prompt', 'Enter');
    await page.waitForSelector('.tool[data-state="approval-requested"] button.approve', { timeout: 40_000 });
    expect(await page.textContent('.tool[data-state="approval-requested"] .output')).toBe('waiting for your approval');
    await page.click('.tool[data-state="approval-requested"] button.approve');
    await page.waitForFunction(
      `[...document.querySelectorAll('.message.assistant .text')].some((node) => node.textContent.includes('Saved the note: ship on Friday'))`,
      undefined,
      { timeout: 40_000 },
    );
    expect(await page.getAttribute('.tool[data-tool="save_note"]', 'data-state')).toBe('output-available');

    await page.waitForSelector('body[data-status="ready"]');
    await page.fill('#prompt', 'Remember: cancel the release');
    await page.press('#prompt', 'Enter');
    await page.waitForSelector('.tool[data-state="approval-requested"] button.reject', { timeout: 40_000 });
    await page.click('.tool[data-state="approval-requested"] button.reject');
    await page.waitForFunction(
      `[...document.querySelectorAll('.message.assistant .text')].some((node) => node.textContent.includes('I did not save the note'))`,
      undefined,
      { timeout: 40_000 },
    );
    expect(errors).toEqual([]);
  }, 90_000);

  // Before, the page logged a CSP error on every load: zod (in the AI SDK) probed for
  // `new Function`, which the page's CSP forbids.
  it('loads and answers under its own CSP with no console error', async () => {
    const strict = await launchChromium({ viewport: { width: 1100, height: 900 } });
    try {
      const page = await strict.context.newPage();
      const { errors } = watchPage(page);
      await page.goto(server.url);
      await page.waitForSelector('body[data-status="ready"]');
      await page.fill('#prompt', 'What is this project?');
      await page.press('#prompt', 'Enter');
      await page.waitForSelector('.message.assistant');
      await page.waitForSelector('body[data-status="ready"]', { timeout: 60_000 });
      expect((await page.locator('.message.assistant').last().textContent())?.length).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await strict.close();
    }
  }, 90_000);
});
