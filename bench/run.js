/**
 * Runs every `bench/*.bench.js` in sequence (each default-exports an async function
 * returning a markdown section), prints each section and writes
 * bench/results/README.md with every benchmark's latest section.
 *
 *   npm run bench               every benchmark
 *   npm run bench -- packer     only those whose file name contains "packer"
 *
 * A benchmark left out by the filter keeps its section from its own results file
 * (bench/results/<name>.md), so a filtered run never drops the others' figures.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';

const here = new URL('./', import.meta.url);
const filters = process.argv.slice(2);

const all = (await readdir(here)).filter((name) => name.endsWith('.bench.js')).sort();
const selected = all.filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)));
if (selected.length === 0) {
  process.stderr.write(`no benchmark matches ${filters.join(', ')}: the files are ${all.join(', ')}\n`);
  process.exit(2);
}

async function runOne(name) {
  process.stderr.write(`bench: running ${name}\n`);
  const started = Date.now();
  const module = await import(new URL(name, here).href);
  if (typeof module.default !== 'function') {
    process.stderr.write(`bench: ${name} has no default export function, skipped\n`);
    return undefined;
  }
  globalThis.gc?.();
  const section = String(await module.default()).trim();
  // Keep each benchmark's own file current too (some write it only when run alone).
  await writeFile(new URL(`./results/${name.replace(/\.bench\.js$/, '.md')}`, here), `${section}\n`);
  process.stdout.write(`${section}\n\n`);
  process.stderr.write(`bench: ${name} took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return section;
}

async function savedSection(name) {
  const file = new URL(`./results/${name.replace(/\.bench\.js$/, '.md')}`, here);
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trim() || undefined;
}

const sections = [];
for (const name of all) {
  const section = selected.includes(name) ? await runOne(name) : await savedSection(name);
  if (section) sections.push(section);
}

const cpus = os.cpus();
const header = `# Benchmark results

Written by \`npm run bench\` (this run: ${selected.join(', ')}; ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores).
Each benchmark also writes its own file in this folder; sections not run this time come from those files.
`;
await mkdir(new URL('./results/', here), { recursive: true });
await writeFile(new URL('./results/README.md', here), `${header}\n${sections.join('\n\n')}\n`);
