/**
 * The engine's shape, checked on its source: no import cycle between files (type-only imports
 * count too), none between folders either (the folders stand in one order, each importing only
 * those below it), `model/` at the bottom importing nothing above it, no two files of one name,
 * and no file too long to read. The import graph and its circles come from
 * `scripts/lib/source-graph.ts`, shared with the server's layout test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importCycles, readSources, type SourceFile } from '../../../scripts/lib/source-graph.ts';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const MAX_LINES = 600;

/** The folder a file belongs to (`combat/`); a file at the root of `src/` stands for itself. */
const folderOf = (name: string): string => (name.includes('/') ? `${name.split('/')[0]}/` : name);

/** The folders that import each other in a circle, each with the imports that close it. */
function folderCycles(files: ReadonlyMap<string, SourceFile>): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const f of files.values()) {
    const from = folderOf(f.name);
    const to = edges.get(from) ?? new Set<string>();
    for (const i of f.imports) if (folderOf(i) !== from) to.add(folderOf(i));
    edges.set(from, to);
  }
  return cycles(new Map([...edges].map(([k, v]) => [k, [...v]]))).map((folders) => [
    ...folders,
    ...[...files.values()].flatMap((f) =>
      f.imports
        .filter((i) => folders.includes(folderOf(f.name)) && folders.includes(folderOf(i)))
        .filter((i) => folderOf(i) !== folderOf(f.name))
        .map((i) => `${f.name} -> ${i}`),
    ),
  ]);
}

/** File names (without their folder) borne by more than one file, with the files bearing each. */
function sharedNames(names: Iterable<string>): string[] {
  const byName = new Map<string, string[]>();
  for (const n of names)
    byName.set(path.posix.basename(n), [...(byName.get(path.posix.basename(n)) ?? []), n]);
  return [...byName.values()].filter((ns) => ns.length > 1).map((ns) => ns.join(' '));
}

describe('the engine source', () => {
  const files = readSources(SRC);

  it('is read whole: every relative import names a file that exists', () => {
    expect(files.size).toBeGreaterThan(50);
    const missing = [...files.values()].flatMap((f) =>
      f.imports.filter((i) => !files.has(i)).map((i) => `${f.name} -> ${i}`),
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

  it('has no import cycle between folders: each folder imports only folders below it', () => {
    expect(folderCycles(files)).toEqual([]);
  });

  it('finds a folder cycle when there is one (the check can fail)', () => {
    const graph = new Map(
      [
        { name: 'combat/phase.ts', lines: 1, imports: ['naval/landing.ts', 'model/ids.ts'] },
        { name: 'naval/landing.ts', lines: 1, imports: ['combat/odds.ts'] },
        { name: 'combat/odds.ts', lines: 1, imports: ['model/ids.ts'] },
        { name: 'model/ids.ts', lines: 1, imports: [] },
        { name: 'engine.ts', lines: 1, imports: ['combat/phase.ts'] },
      ].map((f) => [f.name, f]),
    );
    expect(folderCycles(graph)).toEqual([
      ['combat/', 'naval/', 'combat/phase.ts -> naval/landing.ts', 'naval/landing.ts -> combat/odds.ts'],
    ]);
  });

  it('gives every file a name of its own, so a name says which rule it holds', () => {
    expect(sharedNames(files.keys())).toEqual([]);
    expect(sharedNames(['realm/orders.ts', 'turn/orders.ts', 'turn/legal.ts'])).toEqual([
      'realm/orders.ts turn/orders.ts',
    ]);
  });

  it('keeps model/ at the bottom: it imports only model/', () => {
    const upward = [...files.values()]
      .filter((f) => f.name.startsWith('model/'))
      .flatMap((f) => f.imports.filter((i) => !i.startsWith('model/')).map((i) => `${f.name} -> ${i}`));
    expect(upward).toEqual([]);
  });

  it('has a row in the README table for every folder', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const folders = [
      ...new Set([...files.keys()].filter((f) => f.includes('/')).map((f) => f.split('/')[0])),
    ];
    expect(folders.length).toBeGreaterThan(5);
    expect(folders.filter((d) => !readme.includes(`| \`src/${d}/\` |`))).toEqual([]);
  });

  it('serves @bke/engine/types without loading the engine: its values come from files with no runtime import', () => {
    const entry = readFileSync(path.join(SRC, 'types.ts'), 'utf8');
    const valueSources = [...entry.matchAll(/^export \{[^}]*\} from '\.\/(.+)';$/gm)].map((m) => m[1]!);
    expect(valueSources.length).toBeGreaterThan(0);
    const loading = valueSources.filter((f) =>
      readFileSync(path.join(SRC, f), 'utf8')
        .split('\n')
        .some((line) => line.startsWith('import ') && !line.startsWith('import type ')),
    );
    expect(loading).toEqual([]);
  });

  it('serves @bke/engine/schemas from model/ alone, so the protocol and the client load no rule', () => {
    const entry = readFileSync(path.join(SRC, 'schemas.ts'), 'utf8');
    const sources = [...entry.matchAll(/^export \{[^}]*\} from '\.\/(.+)';$/gm)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((f) => !f.startsWith('model/'))).toEqual([]);
    expect(
      entry.split('\n').filter((l) => /^(import|export) /.test(l) && !l.includes("from './model/")),
    ).toEqual([]);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const long = [...files.values()].filter((f) => f.lines > MAX_LINES).map((f) => `${f.name} (${f.lines})`);
    expect(long).toEqual([]);
  });
});
