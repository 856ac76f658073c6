/** Small graph helpers shared by the map tests. */

/** Breadth-first search from `start`, stepping only to areas `step` accepts; returns hop distances. */
export function distances(
  start: string,
  next: (id: string) => readonly string[],
  step: (id: string) => boolean = () => true,
): Map<string, number> {
  const dist = new Map([[start, 0]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i] as string;
    for (const n of next(id)) {
      if (dist.has(n) || !step(n)) continue;
      dist.set(n, (dist.get(id) ?? 0) + 1);
      queue.push(n);
    }
  }
  return dist;
}

/** Connected components of the given areas along `next`. */
export function components(ids: readonly string[], next: (id: string) => readonly string[]): string[][] {
  const seen = new Set<string>();
  const out: string[][] = [];
  const within = new Set(ids);
  for (const id of ids) {
    if (seen.has(id)) continue;
    const comp = [...distances(id, next, (n) => within.has(n)).keys()];
    for (const c of comp) seen.add(c);
    out.push(comp.sort());
  }
  return out;
}
