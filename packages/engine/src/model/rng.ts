/**
 * Dice: sfc32 over four 32-bit words kept in the game state, seeded from the
 * setup's seed string. Pure: every draw returns the next state alongside the value.
 */
export type RngState = readonly [number, number, number, number];

/** cyrb128: spreads a seed string over four 32-bit words. */
const seedWords = (seed: string): RngState => {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
};

const next = (s: RngState): [number, RngState] => {
  let [a, b, c, d] = s;
  a >>>= 0;
  b >>>= 0;
  c >>>= 0;
  d >>>= 0;
  let t = (a + b) | 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) | 0;
  c = (c << 21) | (c >>> 11);
  d = (d + 1) | 0;
  t = (t + d) | 0;
  c = (c + t) | 0;
  return [t >>> 0, [a >>> 0, b >>> 0, c >>> 0, d >>> 0]];
};

/** The PRNG state for a seed (the server draws seeds with crypto). */
export const seedRng = (seed: string): RngState => {
  let s = seedWords(seed);
  for (let i = 0; i < 12; i++) s = next(s)[1];
  return s;
};

/** An integer in [1, sides], without modulo bias. */
export const rollDie = (s: RngState, sides = 6): [number, RngState] => {
  const limit = Math.floor(0x100000000 / sides) * sides;
  let state = s;
  for (;;) {
    const [v, n] = next(state);
    state = n;
    if (v < limit) return [(v % sides) + 1, state];
  }
};

/** Two dice; returns both faces so events can show them. */
export const roll2d6 = (s: RngState): [[number, number], RngState] => {
  const [a, s1] = rollDie(s);
  const [b, s2] = rollDie(s1);
  return [[a, b], s2];
};
