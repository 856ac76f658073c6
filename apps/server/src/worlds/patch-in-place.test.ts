import { applyPatch, escapePointer, type PatchOp } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { applyPatchInPlace } from './patch-in-place.ts';

/** A small seeded generator (mulberry32): the same cases on every run. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = unknown;
const KEYS = ['a', 'b', 'c', 'x/y', 'm~n'];

function value(r: () => number, depth: number): Json {
  const k = r();
  if (depth <= 0 || k < 0.3) return Math.floor(r() * 10);
  if (k < 0.4) return null;
  if (k < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth - 1));
  const o: Record<string, Json> = {};
  for (const key of KEYS) if (r() < 0.5) o[key] = value(r, depth - 1);
  return o;
}

/** A path into `doc`, mostly to places that exist, sometimes one step beyond or to a bad index. */
function path(r: () => number, doc: Json): string {
  const keys: string[] = [];
  let node = doc;
  for (;;) {
    const stop = r() < 0.3;
    if (Array.isArray(node)) {
      const pick = r();
      const key =
        pick < 0.1
          ? '-'
          : pick < 0.15
            ? String(node.length + 1)
            : String(Math.floor(r() * (node.length + 1)));
      keys.push(key);
      if (stop || key === '-') break;
      node = node[Number(key)];
    } else if (node !== null && typeof node === 'object') {
      const key = KEYS[Math.floor(r() * KEYS.length)] as string;
      keys.push(escapePointer(key));
      if (stop) break;
      node = (node as Record<string, Json>)[key];
    } else {
      if (r() < 0.5) keys.push('a');
      break;
    }
  }
  return keys.length === 0 ? '' : `/${keys.join('/')}`;
}

function patch(r: () => number, doc: Json): PatchOp[] {
  const ops: PatchOp[] = [];
  let current = doc;
  for (let n = Math.floor(r() * 4) + 1; n > 0; n--) {
    const p = path(r, current);
    const k = r();
    const op: PatchOp =
      k < 0.4
        ? { op: 'replace', path: p, value: value(r, 2) }
        : k < 0.7
          ? { op: 'add', path: p, value: value(r, 2) }
          : { op: 'remove', path: p };
    ops.push(op);
    try {
      current = applyPatch(current, [op]);
    } catch {
      // A failing op stays in: the patch must fail the same way in place.
    }
  }
  return ops;
}

const outcome = (f: () => Json) => {
  try {
    return { ok: true, doc: f() };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
};

describe('applyPatchInPlace', () => {
  it('gives what applyPatch gives, document or error, and a failed patch leaves the document as it was', () => {
    const r = rng(20261124);
    let failed = 0;
    for (let i = 0; i < 3000; i++) {
      const doc = value(r, 4);
      const ops = patch(r, doc);
      const before = structuredClone(doc);
      const copy = structuredClone(doc);
      const expected = outcome(() => applyPatch(doc, ops));
      expect(doc).toEqual(before); // applyPatch never mutates
      const got = outcome(() => applyPatchInPlace(copy, ops));
      expect(got).toEqual(expected);
      if (!got.ok) {
        failed++;
        expect(copy).toEqual(before);
      }
    }
    // Both kinds of case were met, not only one.
    expect(failed).toBeGreaterThan(300);
    expect(failed).toBeLessThan(2700);
  });

  it('changes the very document it is given', () => {
    const doc = { players: [{ id: 'A', vp: 1 }], turn: 3 };
    const out = applyPatchInPlace(doc, [
      { op: 'replace', path: '/players/0/vp', value: 2 },
      { op: 'add', path: '/players/-', value: { id: 'B', vp: 0 } },
      { op: 'remove', path: '/turn' },
    ]);
    expect(out).toBe(doc);
    expect(doc).toEqual({
      players: [
        { id: 'A', vp: 2 },
        { id: 'B', vp: 0 },
      ],
    });
  });
});
