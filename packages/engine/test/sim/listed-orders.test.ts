/**
 * Legal orders never lie (4, 13): seeded games with every optional rule on, under both victory
 * conditions (14.3.1, 14.3.2), played by the strong bot, the simple policy and random legal play;
 * at sampled positions (and the first of every step) every concrete form of every order listed
 * for every seat is applied, and each must be accepted without a throw. `npm run -s engine --
 * check --games 8 --turns 150` plays the long version.
 */
import { describe, expect, it } from 'vitest';
import { strongPolicy } from '../../src/bot/strong.ts';
import { createEngine } from '../../src/index.ts';
import { playListedCheck } from '../../src/sim/listed-check.ts';
import { simplePolicy } from '../../src/sim/policy.ts';

const engine = createEngine();

describe('every listed order is accepted', () => {
  for (const victory of ['basic', 'advanced'] as const)
    it(`over two 30-turn games with every optional rule on, ${victory} victory`, () => {
      let tried = 0;
      for (const seed of ['listed-1', 'listed-2']) {
        const r = playListedCheck(engine, seed, {
          turns: 30,
          victory,
          every: 60,
          cap: 4,
          policies: [(s) => strongPolicy(s), (s) => simplePolicy(s), () => 'random'],
        });
        expect(r.problems).toEqual([]);
        expect(r.turns).toBe(30);
        tried += r.tried;
      }
      // The check tried a real number of orders (it would pass vacuously on an empty listing).
      expect(tried).toBeGreaterThan(1000);
    }, 120_000);
});
