/**
 * Docs that check themselves: the folder READMEs list their folders' files, and
 * docs/architecture.md names every package with its Episodic dependencies and holds the
 * layer order of core that test/conventions.test.ts enforces (read from the doc, so the
 * two cannot differ).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { architectureDoc, coreLayers, packageTable } from './support/architecture-doc.js';

/** Every folder under a package's src/ (the src/ roots themselves excluded). */
function sourceFolders(): string[] {
  const folders: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist' || !statSync(path).isDirectory()) continue;
      folders.push(path);
      walk(path);
    }
  };
  for (const pkg of readdirSync('packages')) if (existsSync(join('packages', pkg, 'src'))) walk(join('packages', pkg, 'src'));
  return folders;
}

/** A folder's entries a README must list: source files and subfolders, not tests. */
function listedEntries(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name !== 'README.md' && !/\.test\.tsx?$/.test(name))
    .map((name) => (statSync(join(folder, name)).isDirectory() ? `${name}/` : name));
}

describe('docs that check themselves', () => {
  it('every folder README lists each file and subfolder of its folder', () => {
    const unlisted: string[] = [];
    for (const folder of sourceFolders()) {
      const readme = join(folder, 'README.md');
      if (!existsSync(readme)) continue;
      const text = readFileSync(readme, 'utf8');
      for (const entry of listedEntries(folder)) if (!text.includes(`\`${entry}\``)) unlisted.push(`${readme}: ${entry}`);
    }
    expect(unlisted).toEqual([]);
  });

  it('every folder of core has a README', () => {
    const missing = sourceFolders().filter((folder) => folder.startsWith(join('packages', 'core')) && !existsSync(join(folder, 'README.md')));
    expect(missing).toEqual([]);
  });

  it('folder READMEs have no cut-off entries', () => {
    // An entry line that stops inside an open backtick is a description cut short.
    const broken: string[] = [];
    for (const folder of sourceFolders()) {
      const readme = join(folder, 'README.md');
      if (!existsSync(readme)) continue;
      readFileSync(readme, 'utf8').split('\n').forEach((line, index) => {
        if (line.startsWith('- `') && (line.match(/`/g) ?? []).length % 2 === 1) broken.push(`${readme}:${index + 1}`);
      });
    }
    expect(broken).toEqual([]);
  });

  it('the architecture doc names every package with its Episodic dependencies', () => {
    const table = packageTable();
    const packages = readdirSync('packages').filter((name) => existsSync(join('packages', name, 'package.json')));
    const wrong: string[] = [];
    for (const dir of packages) {
      const manifest = JSON.parse(readFileSync(join('packages', dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      const row = table.get(manifest.name);
      if (!row) {
        wrong.push(`${manifest.name}: not in the package table of docs/architecture.md`);
        continue;
      }
      const deps = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
        .filter((name) => name.startsWith('@episodic/'))
        .map((name) => name.slice('@episodic/'.length))
        .sort();
      if (deps.join(',') !== [...row].sort().join(',')) wrong.push(`${manifest.name}: package.json has [${deps}], the doc says [${[...row]}]`);
    }
    expect(wrong).toEqual([]);
  });

  it('the architecture doc covers the durable path', () => {
    const doc = architectureDoc();
    for (const name of ['## Durable runs', 'loop/durable/', '@episodic/dbos', '@episodic/restate', 'examples/worker-pool']) expect(doc).toContain(name);
  });

  it('the layer table of the architecture doc names every folder of core, once', () => {
    const folders = readdirSync('packages/core/src').filter((name) => statSync(join('packages/core/src', name)).isDirectory());
    expect([...coreLayers()].sort()).toEqual(folders.sort());
  });
});
