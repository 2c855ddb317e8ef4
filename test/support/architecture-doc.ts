/**
 * docs/architecture.md as data: the layer order of core's folders and the package
 * table. The conventions test enforces the layer order it reads here, so the doc is
 * the one place that order is written.
 */
import { readFileSync } from 'node:fs';

/** The text of docs/architecture.md (tests run from the repository root). */
export function architectureDoc(): string {
  return readFileSync('docs/architecture.md', 'utf8');
}

/** The rows of the first Markdown table whose header row starts with `| first |`. */
function tableRows(first: string): string[][] {
  const lines = architectureDoc().split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${first} |`));
  if (start < 0) throw new Error(`docs/architecture.md has no table headed "${first}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

/** Core's folders in layer order: a folder may import only from the folders before it. */
export function coreLayers(): string[] {
  return tableRows('layer').flatMap((row) => [...(row[0] ?? '').matchAll(/`([a-z-]+)\/`/g)].map((match) => match[1] as string));
}

/** Each package's name and the Episodic packages the doc says it depends on. */
export function packageTable(): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  for (const row of tableRows('package')) {
    const name = /`(@episodic\/[a-z-]+)`/.exec(row[0] ?? '')?.[1];
    if (!name) continue;
    const deps = (row[1] ?? '').startsWith('none') ? [] : (row[1] ?? '').split(',').map((dep) => dep.trim()).filter(Boolean);
    table.set(name, new Set(deps));
  }
  return table;
}
