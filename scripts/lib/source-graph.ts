/**
 * The import graph of a source folder, for the layout tests of the engine and the server: each
 * `.ts` file with its relative imports (type-only ones included) resolved to file names, and the
 * circles in such a graph. No import-graph tool (madge, dependency-cruiser) is among the
 * dependencies; TypeScript's own scanner (`preProcessFile`) reads the imports, and a graph walk of
 * a few lines finds the circles.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** The path below the folder read, with `/` between parts (`worlds/hub.ts`). */
  readonly name: string;
  readonly lines: number;
  /** The `.ts` files it imports, as names like its own. */
  readonly imports: readonly string[];
}

/** Every `.ts` file below `root` that `skip` does not leave out, with its imports of files below `root`. */
export function readSources(
  root: string,
  skip: (name: string) => boolean = () => false,
): Map<string, SourceFile> {
  const names = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !skip(f))
    .sort();
  const out = new Map<string, SourceFile>();
  for (const name of names) {
    const text = readFileSync(path.join(root, name), 'utf8');
    const imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((f) => f.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(name), spec)))
      // An import leaving the folder (a test's shared helper) is not part of the folder's graph.
      .filter((target) => target.endsWith('.ts') && !target.startsWith('../') && !skip(target));
    out.set(name, { name, lines: text.split('\n').length, imports: [...new Set(imports)] });
  }
  return out;
}

/** Strongly connected components with more than one node, or a node importing itself (Tarjan). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
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
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
  };
  for (const name of graph.keys()) if (!index.has(name)) visit(name);
  return found;
}

/** The circles of files that import each other. */
export const importCycles = (files: ReadonlyMap<string, SourceFile>): string[][] =>
  cycles(new Map([...files.values()].map((f) => [f.name, f.imports])));
