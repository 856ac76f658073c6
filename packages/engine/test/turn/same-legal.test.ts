/**
 * `sameLegalOrders` (the engine contract; turn/same-legal.ts): whenever it says a player's legal
 * orders are unchanged from one state to the next, listing them in both states gives the same
 * list. Checked for every player after every order of whole games on the real map: the simulator's
 * play (which grows kingdoms and empires) mixed with random legal orders and undo (4), a random
 * one of the players deciding at once in the economic phase (4.5) acting each time, with the
 * optional diplomacy (13.3 auctions, 13.4 mercenaries, 13.6 leaders, 13.7 tribute).
 */
import { describe, expect, it } from 'vitest';
import { createEngine, type GameState, type PlayerId, simSetup } from '../../src/index.ts';
import { realmOf } from '../../src/model/realm.ts';
import { seededChooser, simplePolicy } from '../../src/sim/policy.ts';
import { randomOrder } from '../helpers/play.ts';

const engine = createEngine();

/** What differs between two states, for counting which of the finer comparisons were exercised. */
function differences(a: GameState, b: GameState): string[] {
  const out: string[] = [];
  if (a.undo !== b.undo) out.push('undo');
  if (a.step !== b.step && a.step.kind === 'economic' && b.step.kind === 'economic') {
    if (a.step.pending !== b.step.pending) out.push('pending');
    if (a.step.pillage !== b.step.pillage) out.push('pillage');
  }
  const ra = realmOf(a).players;
  const rb = realmOf(b).players;
  if (Object.keys(rb).some((id) => ra[id] !== rb[id] && ra[id]?.plan !== rb[id]?.plan)) out.push('plan');
  return out;
}

function play(seed: number, turns: number, exercised: Map<string, number>) {
  const opt =
    seed % 2 === 0
      ? { auction: true, mercenaries: true, tribute: true }
      : { optionalLeaders: true, tribalSeaCrossings: true };
  const created = engine.createGame(simSetup(`same-legal-${seed}`, 6, { opt }));
  if (!created.ok) throw new Error(created.error.code);
  let state: GameState = created.value;
  const choose = seededChooser(`same-legal-choice-${seed}`);
  const policy = simplePolicy(`same-legal-policy-${seed}`);
  let answers = 0;
  let unchanged = 0;
  for (let n = 0; state.turn <= turns && n < turns * 1500; n++) {
    const waiting = engine.waitingFor(state);
    if (waiting.length === 0) break;
    const player = waiting[choose(waiting.length)]!;
    const pick = choose(20);
    const order =
      pick === 0
        ? randomOrder(engine, state, player, choose)
        : pick === 1 && engine.legalOrders(state, player).some((o) => o.type === 'undo')
          ? { type: 'undo' as const }
          : (policy.choose(engine, state, player) ?? engine.timeoutOrders(state, player)[0] ?? null);
    if (!order) throw new Error(`seed ${seed}: no order for ${player}`);
    const r = engine.applyOrder(state, player, order);
    if (!r.ok) throw new Error(`seed ${seed}: ${JSON.stringify(order)} refused: ${r.error.code}`);
    const next = r.value.state;
    for (const p of next.players.map((x) => x.id as PlayerId)) {
      answers++;
      if (!engine.sameLegalOrders(state, next, p)) continue;
      unchanged++;
      // The claim checked: the same orders, consequences included, in the same order.
      expect(engine.legalOrders(next, p)).toEqual(engine.legalOrders(state, p));
      for (const d of differences(state, next)) exercised.set(d, (exercised.get(d) ?? 0) + 1);
    }
    state = next;
  }
  return { answers, unchanged };
}

describe('sameLegalOrders: unchanged only when the legal orders are the same', () => {
  it('holds for every player after every order of random games on the real map', () => {
    const exercised = new Map<string, number>();
    let answers = 0;
    let unchanged = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const r = play(seed, 24, exercised);
      answers += r.answers;
      unchanged += r.unchanged;
    }
    // It does tell "unchanged", through each of its finer comparisons (not only identical states).
    expect(unchanged).toBeGreaterThan(answers / 50);
    for (const part of ['undo', 'pending', 'pillage', 'plan'])
      expect(exercised.get(part) ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
