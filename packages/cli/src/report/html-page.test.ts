import { createTokenCounter } from '@episodic/core';
import { splitEpisodes } from '@episodic/core/transcript';
import { describe, expect, it } from 'vitest';
import { countSections } from '../section-tokens.js';
import { budgetSession } from '../testing/budget-sessions.js';
import { renderEpisodesReport } from './episodes-report.js';
import { chartLibrary, escapeHtml, renderPage, scriptJson } from './html-page.js';

/** Every `src`/`href` attribute and `url(...)` of a page's markup outside its scripts. */
function externalReferences(html: string): string[] {
  const markup = html.replace(/<script[\s\S]*?<\/script>/g, '');
  return [...markup.matchAll(/\s(?:src|href)\s*=\s*["']?([^"'\s>]+)|url\(([^)]*)\)/gi)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
}

describe('scriptJson', () => {
  it('cannot end or open a script element, and reads back unchanged', () => {
    const value = {
      text: '</script><script>alert(1)</script><!-- x -->',
      line: 'a\u2028b\u2029c',
      nested: ['</SCRIPT'],
    };
    const json = scriptJson(value);
    expect(json).not.toMatch(/<\/script/i);
    expect(json).not.toContain('<!--');
    expect(json).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('escapeHtml', () => {
  it('leaves no markup characters', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe(
      '&#60;img src=x onerror=&#34;a(&#39;b&#39;)&#34;&#62;&#38;',
    );
  });
});

describe('renderPage', () => {
  const page = renderPage({ title: 'T <1>', body: '<p>hi</p>', data: { x: '</script>' }, script: 'window.done = 1;' });

  it('inlines Chart.js, the data and the script, and references nothing outside the file', () => {
    expect(page).toContain(chartLibrary().slice(0, 2000));
    expect(page).toContain('<title>T &#60;1&#62;</title>');
    expect(page.match(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/)?.[1]).toBe(
      scriptJson({ x: '</script>' }),
    );
    expect(externalReferences(page)).toEqual([]);
    expect(page).toContain("default-src 'none'");
  });

  it('has exactly the script elements it means to have', () => {
    expect(page.match(/<script[\s>]/g)).toHaveLength(3);
    expect(page.match(/<\/script>/g)).toHaveLength(3);
  });
});

describe('renderEpisodesReport', () => {
  it('shows one table row per episode with its tokens, and a chart canvas', () => {
    const messages = budgetSession({ episodes: 3, steps: 2, resultWords: 50, system: 'Be brief.' });
    const counter = createTokenCounter();
    const episodes = splitEpisodes(messages.slice(1)).map((episode) => ({
      index: episode.index,
      preamble: episode.preamble,
      firstUserText: `Question <b>${episode.index}</b>`,
      messages: episode.messages.length,
      steps: 3,
      toolCalls: 2,
      tokens: countSections(episode.messages, counter),
    }));
    const total = countSections(messages.slice(1), counter);
    const html = renderEpisodesReport({ source: 'run.jsonl', systemTokens: 5, episodes, total });
    const rows = [...html.matchAll(/<tr data-episode="(\d+)">(.*?)<\/tr>/g)];
    expect(rows.map((row) => Number(row[1]))).toEqual([0, 1, 2]);
    expect(rows[0]![2]).toContain('Question &#60;b&#62;0&#60;/b&#62;');
    expect(rows[1]![2]).toContain(`<td>${episodes[1]!.tokens.total.toLocaleString('en-US')}</td>`);
    expect(html).toContain('<canvas id="chart-episodes"');
    expect(externalReferences(html)).toEqual([]);
  });
});
