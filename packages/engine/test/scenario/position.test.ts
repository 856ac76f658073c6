/** createGame from a position: a legal board is played on from its turn; anything else is refused with its reason. */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.ts';

const engine = createEngine();
const players = [
  { id: 'a', name: 'A', seat: 0, colour: 'red' as const },
  { id: 'b', name: 'B', seat: 1, colour: 'blue' as const },
];
const kingdom = { id: 'a', position: 'GERMAN 1', stage: 'kingdom', startedTurn: 1, stageTurn: 8, money: 5 };
const setup = (position: Record<string, unknown>) =>
  engine.createGame({ seed: 'position', players, position: { turn: 12, ...position } });
const reason = (r: ReturnType<typeof setup>) => (r.ok ? null : (r.error as { reason?: string }).reason);

describe('a game set up from a position', () => {
  it('starts the position’s turn: the listed player holds its cycle, the other enters; no neutral where units stand', () => {
    const r = setup({
      players: [kingdom],
      units: [{ id: 'inf', owner: 'a', kind: 'infantry', area: 'rome' }],
      cities: { rome: 'a', lutetia: 'a' },
    });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    expect(r.value.turn).toBe(12);
    expect(r.value.step).toMatchObject({ kind: 'entry', queue: ['b'] });
    // Turns 1–11 held; turn 12 is counted once its entry step is over (4.1).
    expect(r.value.players[0]).toMatchObject({ status: 'active', money: 5, turnsPlayed: 11 });
    expect(r.value.players[0]?.cycle).toMatchObject({ stage: 'kingdom', stageTurn: 8 });
    expect(r.value.neutrals.rome).toBeUndefined();
    expect(r.value.neutrals.lutetia).toBeUndefined();
    expect(r.value.neutrals.antioch).toEqual({ strength: 3 });
    expect(r.value.nextUnit).toBe(2);
  });

  it.each([
    [
      'illegal stack (6)',
      {
        units: [
          { owner: 'a', kind: 'infantry', area: 'rome' },
          { owner: 'a', kind: 'cavalry', area: 'rome' },
        ],
      },
    ],
    ['kind not of this stage', { units: [{ owner: 'a', kind: 'tribe', area: 'rome' }] }],
    ['unit of a player without a position', { units: [{ owner: 'b', kind: 'tribe', area: 'rome' }] }],
    ['ship inland', { units: [{ owner: 'a', kind: 'ship', area: 'lugdunum' }] }],
    ['not a land area', { units: [{ owner: 'a', kind: 'ship', area: 'propontis' }] }],
    [
      'unit beside a neutral garrison',
      { units: [{ owner: 'a', kind: 'infantry', area: 'rome' }], neutrals: { rome: 3 } },
    ],
    ['city owner without a position', { cities: { rome: 'b' } }],
    ['capital not on an owned unpillaged city (10.3)', { players: [{ ...kingdom, capital: 'rome' }] }],
    ['marker turn (9.5)', { markers: [{ area: 'rome', pillager: 'a', turn: 3 }] }],
    [
      'the Persian starts as a kingdom (13.2.3)',
      { players: [{ id: 'a', position: 'PERSIAN', startedTurn: 9 }] },
    ],
  ])('refuses a board with %s', (why, extra) => {
    const r = setup({ players: [kingdom], ...extra });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('setup/invalid');
    expect(reason(r)).toBe(why);
  });

  it('refuses a position with a field it does not know (zod, strict)', () => {
    const r = setup({ players: [kingdom], weather: 'fair' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('setup/invalid');
  });
});
