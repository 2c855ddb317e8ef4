/**
 * One self-contained HTML page: styles, the data as JSON, Chart.js and the page's own
 * script all inline, and a Content-Security-Policy that forbids every network fetch,
 * so a report opens offline, from a mail attachment or a CI artifact alike.
 *
 * @see https://www.chartjs.org/docs/latest/getting-started/integration.html
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What a page is made of. */
export interface PageParts {
  title: string;
  /** Body markup, already escaped. */
  body: string;
  /** Any JSON-serialisable value; the script reads it from `#report-data`. */
  data: unknown;
  /** The page's script (plain browser JavaScript run after Chart.js loads). */
  script: string;
}

// Inline scripts only, no fetches of any kind; images only as data: URLs (canvas exports).
const contentSecurityPolicy =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const styles = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1200px; padding: 0 16px; color: #1d2430; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px; }
.meta { color: #5a6475; margin: 2px 0; }
table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid #e3e7ee; text-align: right; }
th { background: #f4f6fa; } td.text, th.text { text-align: left; }
tr.recommended td { background: #eef8ee; font-weight: 600; }
.chart { position: relative; height: 340px; margin: 8px 0 24px; }
.recommendation { background: #f4f6fa; border-left: 4px solid #3b7d3b; padding: 8px 12px; }
label { font-weight: 600; margin-right: 8px; }
`;

/**
 * Chart.js's UMD build (it defines `window.Chart`), read from the installed package.
 * Its `exports` map hides `dist/chart.umd.min.js`, so the path is found next to the
 * resolved CommonJS entry in the same `dist/` folder.
 */
export function chartLibrary(): string {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('chart.js');
  return readFileSync(join(dirname(entry), 'chart.umd.min.js'), 'utf8');
}

/** Text made safe inside HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * JSON that can sit inside a `<script>` element: every `<` is written as `\u003c`,
 * so no `</script` or `<!--` can end or confuse the element; JSON.parse reads it back
 * unchanged. U+2028 and U+2029 are escaped too, for older parsers.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** JavaScript source made safe inside a `<script>` element. */
function scriptSource(source: string): string {
  // In a string or regex literal `<\/script` means the same; the library has none today.
  return source.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/** The complete page. */
export function renderPage(parts: PageParts): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<style>${styles}</style>
</head>
<body>
${parts.body}
<script type="application/json" id="report-data">${scriptJson(parts.data)}</script>
<script>${scriptSource(chartLibrary())}</script>
<script>${scriptSource(parts.script)}</script>
</body>
</html>
`;
}
