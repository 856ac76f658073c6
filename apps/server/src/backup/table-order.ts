/**
 * The order to restore tables in: every table after the tables its foreign keys point at, so each
 * row's references exist when it is inserted (no constraint needs deferring, nor a superuser's
 * `session_replication_role`). Ties go alphabetically, so a backup's order is the same each time.
 */
export function tableOrder(tables: string[], keys: { child: string; parent: string }[]): string[] {
  const present = new Set(tables);
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  for (const k of keys)
    if (k.child !== k.parent && present.has(k.child) && present.has(k.parent))
      parents.get(k.child)?.add(k.parent);
  const out: string[] = [];
  const done = new Set<string>();
  while (out.length < tables.length) {
    const ready = [...parents.entries()]
      .filter(([t, ps]) => !done.has(t) && [...ps].every((p) => done.has(p)))
      .map(([t]) => t)
      .sort();
    const next = ready[0];
    if (next === undefined)
      throw new Error(`foreign keys in a cycle among ${tables.filter((t) => !done.has(t)).join(', ')}`);
    out.push(next);
    done.add(next);
  }
  return out;
}
