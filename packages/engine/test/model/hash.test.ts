/**
 * `hashState` (model/hash.ts) sums a value's canonical JSON without writing it out. Its value is
 * kept with every snapshot and compared by `rebuild`, so it must stay what it always was: the hash
 * of the text `canonicalJson` writes, checked here on every state of simulated games and on the
 * corners of JSON (escapes, holes, undefined, -0, NaN), and against values taken from the hash as
 * it was first written (the text built in full, then summed).
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson, createEngine, type GameState, hashOfText, hashState } from '../../src/index.ts';
import { simSetup, simulate } from '../../src/sim/play.ts';

const engine = createEngine();

describe('hashState', () => {
  it('is the hash of the canonical JSON text, for every state of simulated games', () => {
    let states = 0;
    for (const seed of ['hash-a', 'hash-b']) {
      const created = engine.createGame(simSetup(seed, 6));
      if (!created.ok) throw new Error(created.error.code);
      let s: GameState = created.value;
      for (const { actor, order } of simulate(engine, simSetup(seed, 6), 8).log) {
        const r = engine.applyOrder(s, actor, order);
        if (!r.ok) throw new Error(r.error.code);
        s = r.value.state;
        expect(hashState(s)).toBe(hashOfText(canonicalJson(s)));
        states++;
      }
      // Views too (rebuild compares the public view's hash).
      expect(hashState(engine.view(s, null))).toBe(hashOfText(canonicalJson(engine.view(s, null))));
    }
    expect(states).toBeGreaterThan(200);
  });

  it('writes the corners of JSON as canonicalJson does', () => {
    // biome-ignore lint/suspicious/noSparseArray: a hole is one of the corners checked
    const holes = [1, , 3];
    const values: unknown[] = [
      null,
      undefined,
      0,
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1e21,
      -1.5,
      true,
      '',
      'quote " backslash \\ newline \n tab \t nul \u0000 é 漢 \ud83d\ude00',
      [],
      {},
      holes,
      [undefined, null, () => 1],
      { b: 1, a: 2, c: undefined, '': { é: [{}] }, '10': 'x', '2': 'y' },
      { nested: { deeper: { deepest: [[[]], { z: [1, { y: undefined }] }] } } },
      new Date(0),
    ];
    for (const v of values) expect(hashState(v)).toBe(hashOfText(canonicalJson(v)));
  });

  it('keeps the values it always had', () => {
    // Taken from the hash before it summed without writing the text out.
    const v = { b: 1, a: [1, 'x\n"é', null, undefined], c: { d: undefined, e: true, f: -0.5 }, '': [] };
    expect(hashState(v)).toBe('be62a6dd11092276');
    const final = simulate(engine, simSetup('hash-golden', 6), 12).final;
    expect(final.turn).toBe(13);
    expect(hashState(final)).toBe('1e1eda62d352aa27');
  });
});
