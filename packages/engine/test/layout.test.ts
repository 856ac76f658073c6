/**
 * The engine's shape, checked on its source: no import cycle between files (type-only imports
 * count too), `model/` at the bottom importing nothing above it, and no file too long to read.
 * The imports are read with TypeScript's own scanner (`preProcessFile`); the graph walk over them
 * is a few lines, written here so the same test also holds the layer and size rules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const MAX_LINES = 600;

interface SourceFile {
  readonly name: string;
  readonly lines: number;
  readonly imports: readonly string[];
}

function readSources(): Map<string, SourceFile> {
  const names = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const out = new Map<string, SourceFile>();
  for (const name of names) {
    const text = readFileSync(path.join(SRC, name), 'utf8');
    const imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((f) => f.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(name), spec)))
      .filter((target) => target.endsWith('.ts'));
    out.set(name, { name, lines: text.split('\n').length, imports: [...new Set(imports)] });
  }
  return out;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function importCycles(files: ReadonlyMap<string, SourceFile>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of files.get(v)?.imports ?? []) {
      if (!files.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || files.get(v)?.imports.includes(v)) cycles.push(component.sort());
  };
  for (const name of files.keys()) if (!index.has(name)) visit(name);
  return cycles;
}

describe('the engine source', () => {
  const files = readSources();

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
