/**
 * The gentlest level plays a newcomer's game through the engine's public contract: every order it
 * gives is accepted, it never gives a move the engine foresees cutting its horde apart for good
 * (9.3.4) or only losing units (6, 9.2, 11.5), never sails a voyage as likely to sink as not
 * (5.3), and never sends its last units into an attack below 3-1 (7.1).
 */
import { describe, expect, it } from 'vitest';
import { voyageRisk } from '../../src/bot/guard.ts';
import { createBot } from '../../src/bot/levels.ts';
import { createEngine, type GameState, type PlayerId, simSetup } from '../../src/index.ts';

const ratio = (odds: string) => {
  const m = /^(\d+)-(\d+)$/.exec(odds);
  return m ? Number(m[1]) / Number(m[2]) : 0;
};

describe('novice bot', () => {
  it('plays 25 turns against easy bots without an absurd order', () => {
    const engine = createEngine();
    const created = engine.createGame(simSetup('novice-test', 4));
    if (!created.ok) throw new Error(created.error.code);
    let state: GameState = created.value;
    const novices = new Set(['p1', 'p3']);
    const bots = new Map(
      ['p1', 'p2', 'p3', 'p4'].map((p) => [p, createBot(novices.has(p) ? 'novice' : 'easy', `n:${p}`)]),
    );
    let moves = 0;
    for (let n = 0; state.turn <= 25 && n < 60_000; n++) {
      const player = engine.waitingFor(state)[0] as PlayerId | undefined;
      if (!player) break;
      const order =
        bots.get(player)!.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0]!;
      if (novices.has(player)) {
        const listed = engine.legalOrders(state, player);
        if (order.type === 'move') {
          moves++;
          const d = listed
            .find((o): o is Extract<typeof o, { type: 'move' }> => o.type === 'move' && o.unit === order.unit)
            ?.destinations.find((x) => x.path.join() === order.path.join());
          expect(d).toBeDefined();
          expect(d?.onlyLoses).toBeUndefined();
          expect((d?.consequences ?? []).filter((c) => c.kind === 'hordeCutApart' && !c.mendable)).toEqual(
            [],
          );
        }
        if (order.type === 'shipMove') expect(voyageRisk(engine, order.path)).toBeLessThan(1 / 2);
        if (order.type === 'combatAttack') {
          const others = Object.values(state.units).filter(
            (u) => u.owner === player && u.kind !== 'leader' && !order.attackers.includes(u.id),
          );
          const attack = listed.find((o) => o.type === 'combatAttack' && o.target === order.target);
          const choice =
            attack?.type === 'combatAttack'
              ? attack.choices.find((c) => c.attackers.join() === order.attackers.join())
              : undefined;
          if (others.length === 0 && attack?.type === 'combatAttack' && !attack.landing)
            expect(ratio(choice?.odds ?? '0-1')).toBeGreaterThanOrEqual(3);
        }
      }
      const r = engine.applyOrder(state, player, order);
      expect(r.ok ? 'accepted' : `${r.error.code} for ${JSON.stringify(order)}`).toBe('accepted');
      if (!r.ok) break;
      state = r.value.state;
    }
    expect(state.turn).toBeGreaterThan(25);
    expect(moves).toBeGreaterThan(0);
  }, 120_000);
});
