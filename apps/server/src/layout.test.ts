/**
 * The server's shape, checked on its source: no import cycle between files (type-only imports
 * count too), no file too long to read, and a row in the README's server table for every folder.
 * Prisma's generated client (`generated/`) is left out: it is written by `prisma generate`, not by
 * hand, and imports nothing of ours.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, readSources, type SourceFile } from '../../../scripts/lib/source-graph.ts';

const SRC = fileURLToPath(new URL('./', import.meta.url));
const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const GENERATED = 'generated/';
const MAX_LINES = 600;

/** The files over `MAX_LINES` lines, with their length. */
const longFiles = (files: ReadonlyMap<string, SourceFile>): string[] =>
  [...files.values()].filter((f) => f.lines > MAX_LINES).map((f) => `${f.name} (${f.lines})`);

/** The README's section on the server's folders: from its heading to the next heading. */
function serverTable(readme: string): string {
  const start = readme.indexOf("### The server's folders");
  if (start < 0) return '';
  const end = readme.indexOf('\n#', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Every folder holding a file of `files` (and the folders above it), as `worlds/` or `sockets/handlers/`. */
function foldersOf(files: ReadonlyMap<string, SourceFile>): string[] {
  const folders = new Set<string>([GENERATED]);
  for (const name of files.keys()) {
    const parts = name.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) folders.add(`${parts.slice(0, i).join('/')}/`);
  }
  return [...folders].sort();
}

describe('the server source', () => {
  const files = readSources(SRC, (name) => name.startsWith(GENERATED));

  it('is read whole: every relative import names a file that exists', () => {
    expect(files.size).toBeGreaterThan(100);
    const missing = [...files.values()].flatMap((f) =>
      f.imports.filter((i) => i.endsWith('.ts') && !files.has(i)).map((i) => `${f.name} -> ${i}`),
    );
    expect(missing).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(importCycles(files)).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const a = { name: 'a.ts', lines: 1, imports: ['b.ts'] };
    const b = { name: 'b.ts', lines: 1, imports: ['c.ts'] };
    const c = { name: 'c.ts', lines: 1, imports: ['a.ts'] };
    const d = { name: 'd.ts', lines: 1, imports: ['a.ts'] };
    const graph = new Map([a, b, c, d].map((f) => [f.name, f]));
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    expect(longFiles(files)).toEqual([]);
  });

  it("names every folder in the README's server table", () => {
    const table = serverTable(readFileSync(README, 'utf8'));
    const folders = foldersOf(files);
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((d) => !table.includes(`| \`${d}\` |`))).toEqual([]);
  });
});
