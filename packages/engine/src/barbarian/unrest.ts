/**
 * 9.3.5 Tribal unrest, checked in the administration phase. Type A: at least 15 units with at
 * least one combat unit and no attack made this turn. Type B: at least 25 units of any kind.
 * Each roll of 1–3 on 1d6 costs 2 × another 1d6 units, chosen by the owner.
 */
import { rollDie } from '../model/dice.ts';
import type { GameEvent } from '../model/events.ts';
import type { PlayerId } from '../model/ids.ts';
import { countUnits, leasedFrom } from '../model/queries.ts';
import type { Game } from '../model/state-ops.ts';

const UNREST_A_UNITS = 15;
const UNREST_B_UNITS = 25;

/** D-20: which unrest rolls this barbarian must make. */
export function unrestRollsDue(units: number, combatUnits: number, attacked: boolean): ('A' | 'B')[] {
  const due: ('A' | 'B')[] = [];
  if (units >= UNREST_A_UNITS && combatUnits >= 1 && !attacked) due.push('A');
  if (units >= UNREST_B_UNITS) due.push('B');
  return due;
}

/** 9.3.5: roll every due unrest check; returns the total number of units to lose (owner picks which). */
export function rollUnrest(g: Game, player: PlayerId): { state: Game; events: GameEvent[]; loss: number } {
  const { total, nonTribe } = countUnits(g, player);
  let s = g;
  let loss = 0;
  const events: GameEvent[] = [];
  for (const kind of unrestRollsDue(total, nonTribe, g.flags.attacked.includes(player))) {
    const r = rollDie(s);
    s = r.state;
    if (r.value <= 3) {
      const l = rollDie(s);
      s = l.state;
      loss += 2 * l.value;
      events.push({
        type: 'unrestRolled',
        player,
        kind,
        die: r.value,
        unrest: true,
        lossDie: l.value,
        loss: 2 * l.value,
      });
    } else {
      events.push({ type: 'unrestRolled', player, kind, die: r.value, unrest: false });
    }
  }
  // 13.4 / AMBIG-21: units leased out count for the checks but serve the hirer: losses come from the rest.
  return { state: s, events, loss: Math.min(loss, total - leasedFrom(g, player).length) };
}
