/**
 * The HTML report of a session's episodes (for `episodic episodes FILE --html`):
 * a chart of tokens per episode by section and the episode table, on the same
 * self-contained page as the budget report.
 */
import type { SectionTokens } from '../section-tokens.js';
import { formatCount, plural, preview } from '../text-table.js';
import { escapeHtml, renderPage } from './html-page.js';

/** One episode as `--json` prints it. */
export interface EpisodeSummary {
  /** 0-based, as `splitEpisodes` numbers it (the table shows it 1-based). */
  index: number;
  /** True for messages before the first user message. */
  preamble: boolean;
  /** The first user message's text, in full; empty for a preamble. */
  firstUserText: string;
  messages: number;
  /** Assistant messages: one per model call. */
  steps: number;
  toolCalls: number;
  tokens: SectionTokens;
}

/** What the episodes page shows. */
export interface EpisodesReportInput {
  source: string;
  systemTokens: number;
  episodes: readonly EpisodeSummary[];
  total: SectionTokens;
}

/** Sections in stacking order, with the label the chart and table use. */
const sections: readonly { key: Exclude<keyof SectionTokens, 'total'>; label: string; color: string }[] = [
  { key: 'user', label: 'user', color: '#5a6475' },
  { key: 'assistantText', label: 'assistant text', color: '#3566a8' },
  { key: 'reasoning', label: 'reasoning', color: '#6c4fa8' },
  { key: 'toolCalls', label: 'tool calls', color: '#8a6d1f' },
  { key: 'toolResults', label: 'tool results', color: '#d9822b' },
];

const episodesScript = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  new Chart(document.getElementById('chart-episodes'), {
    type: 'bar',
    data: {
      labels: data.labels,
      datasets: data.sections.map(function (section) {
        return { label: section.label, data: section.values, backgroundColor: section.color, borderWidth: 0 };
      }),
    },
    options: {
      scales: { x: { stacked: true, title: { display: true, text: 'episode' } }, y: { stacked: true, title: { display: true, text: 'tokens' } } },
      plugins: { title: { display: true, text: 'Tokens per episode by section' } },
    },
  });
  document.body.setAttribute('data-ready', 'true');
})();
`;

/** The whole self-contained HTML page. */
export function renderEpisodesReport(input: EpisodesReportInput): string {
  const data = {
    labels: input.episodes.map((episode) => (episode.preamble ? 'preamble' : String(episode.index + 1))),
    sections: sections.map((section) => ({
      label: section.label,
      color: section.color,
      values: input.episodes.map((episode) => episode.tokens[section.key]),
    })),
  };
  const head = [
    '#',
    'first user message',
    'messages',
    'steps',
    'tool calls',
    ...sections.map((section) => `${section.label} tokens`),
    'total tokens',
  ];
  const rows = input.episodes.map((episode) => {
    const cells = [
      episode.preamble ? '-' : String(episode.index + 1),
      episode.preamble ? '(before the first user message)' : preview(episode.firstUserText, 80),
      formatCount(episode.messages),
      formatCount(episode.steps),
      formatCount(episode.toolCalls),
      ...sections.map((section) => formatCount(episode.tokens[section.key])),
      formatCount(episode.tokens.total),
    ];
    return `<tr data-episode="${episode.index}">${cells
      .map((cell, index) => `<td${index === 1 ? ' class="text"' : ''}>${escapeHtml(cell)}</td>`)
      .join('')}</tr>`;
  });
  const body = [
    `<h1>Episodes of ${escapeHtml(input.source)}</h1>`,
    `<p class="meta">${escapeHtml(plural(input.episodes.length, 'episode'))}, ` +
      `${escapeHtml(formatCount(input.total.total + input.systemTokens))} tokens (o200k_base)` +
      (input.systemTokens > 0 ? `, system prompt ${escapeHtml(formatCount(input.systemTokens))}` : '') +
      '.</p>',
    '<div class="chart"><canvas id="chart-episodes" aria-label="Tokens per episode by section"></canvas></div>',
    `<table class="episodes">\n<tr>${head.map((cell, index) => `<th${index === 1 ? ' class="text"' : ''}>${escapeHtml(cell)}</th>`).join('')}</tr>`,
    ...rows,
    '</table>',
  ].join('\n');
  return renderPage({ title: `episodic episodes: ${input.source}`, body, data, script: episodesScript });
}
