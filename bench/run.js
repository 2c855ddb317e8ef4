/**
 * Runs every `bench/*.bench.js` in sequence (each default-exports an async function
 * returning a markdown section), prints each section and writes them all to
 * bench/results/README.md.
 *
 *   npm run bench               every benchmark
 *   npm run bench -- packer     only those whose file name contains "packer"
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';

const here = new URL('./', import.meta.url);
const filters = process.argv.slice(2);

const files = (await readdir(here))
  .filter((name) => name.endsWith('.bench.js'))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort();
if (files.length === 0) {
  process.stderr.write(`no benchmark matches ${filters.join(', ')}: the files are bench/*.bench.js\n`);
  process.exit(2);
}

const sections = [];
for (const name of files) {
  process.stderr.write(`bench: running ${name}\n`);
  const started = Date.now();
  const module = await import(new URL(name, here).href);
  if (typeof module.default !== 'function') {
    process.stderr.write(`bench: ${name} has no default export function, skipped\n`);
    continue;
  }
  globalThis.gc?.();
  const section = String(await module.default()).trim();
  process.stdout.write(`${section}\n\n`);
  sections.push(section);
  process.stderr.write(`bench: ${name} took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/** Sections of an earlier README, by their `## ` title, so a filtered run replaces only its own. */
async function earlierSections(file) {
  const text = await readFile(file, 'utf8').catch(() => '');
  const parts = text.split(/^(?=## )/m).slice(1);
  return new Map(parts.map((part) => [part.split('\n', 1)[0], part.trim()]));
}

const readme = new URL('./results/README.md', here);
const merged = filters.length > 0 ? await earlierSections(readme) : new Map();
for (const section of sections) merged.set(section.split('\n', 1)[0], section);

const cpus = os.cpus();
const header = `# Benchmark results

Written by \`npm run bench\` (last run: ${files.join(', ')}, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores).
Each section may also have its own file in this folder.
`;
await mkdir(new URL('./results/', here), { recursive: true });
await writeFile(readme, `${header}\n${[...merged.values()].join('\n\n')}\n`);
