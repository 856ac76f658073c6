/**
 * 13.6 Optional leaders: capture and ransom (opt.optionalLeaders). A leader whose stack dies stays
 * on the board alone; it is captured as soon as an unfriendly unit enters its area (AMBIG-53: even
 * passing through). The prisoner leaves the board and is held under one unit of the captor; the
 * captor may hand it to another of its units in the same area during its own movement phase, and
 * release it for an agreed ransom (offer → accept) or execute it during its own player turn. A
 * diplomat is released at once for 1. The prisoner goes free when its holder is eliminated in a
 * combat against its owner. Ransom is income and VP of the captor (14.3.1, record-sheet column 3).
 *
 * Engine decisions (docs/rules-decisions.md): a kingdom whose leader is a prisoner simply has no
 * leader (10.2: never replaced; no shift, no administrator bonus) until it comes back; a holder lost
 * any other way hands the prisoner to another captor unit in its area, else the leader goes free; a
 * freed or ransomed leader is placed like a new one (10.2), with a friendly combat unit — in the
 * capital's area if one is there —, and is lost if its owner has none; a prisoner whose owner no
 * longer leads a kingdom (or an empire, for a dynastic leader) is gone.
 */

import type { RealmEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { playerById, unitsByArea, unitsOf } from '../model/queries.ts';
import type { Prisoner } from '../model/realm.ts';
import { patchRealm, patchRealmPlayer, realmOf, realmPlayer } from '../model/realm.ts';
import type { GameStateCore } from '../model/state.ts';
import { gainIncome, omitKeys, updatePlayer } from '../model/state-ops.ts';
import type { Unit } from '../model/units.ts';
import { LEADER_PROFILES, leaderTypeOf } from './leader-types.ts';

interface Step<S> {
  readonly state: S;
  readonly events: RealmEvent[];
}

/** 13.6: every captured leader, off the board. */
export const prisonersOf = (g: GameStateCore): readonly Prisoner[] => realmOf(g).prisoners ?? [];

/** 13.6: the prisoner record of a captured leader. */
export const prisonerOf = (g: GameStateCore, leader: UnitId): Prisoner | undefined =>
  prisonersOf(g).find((p) => p.leader === leader);

const withPrisoners = <S extends GameStateCore>(g: S, prisoners: readonly Prisoner[]): S =>
  patchRealm(g, { prisoners });

/** 13.6: is capture (rather than 10.2 elimination) in force? */
export const capturesLeaders = (g: GameStateCore): boolean => g.options.opt.optionalLeaders;

export type LeaderCaptured = Extract<RealmEvent, { type: 'leaderCaptured' }>;

/**
 * 13.6: leaders `victims` are captured by `holder` (the unfriendly unit that entered their area).
 * (A diplomat's release at once for 1 follows in `settlePrisoners`.)
 */
export function captureLeaders<S extends GameStateCore>(
  g: S,
  victims: readonly Unit[],
  holder: Unit,
): { state: S; events: LeaderCaptured[] } {
  let s = g;
  const events: LeaderCaptured[] = [];
  for (const l of victims) {
    if (!s.units[l.id]) continue;
    s = { ...s, units: omitKeys(s.units, [l.id]) };
    const owner = l.owner as PlayerId;
    const captor = holder.owner as PlayerId;
    events.push({ type: 'leaderCaptured', leader: l.id, owner, captor, holder: holder.id, area: l.area });
    const p: Prisoner = { leader: l.id, owner, captor, holder: holder.id, area: holder.area, turn: s.turn };
    s = withPrisoners(s, [...prisonersOf(s), p]);
  }
  return { state: s, events };
}

/** 10.2 placement for a leader coming back: with a friendly combat unit, the capital's area first. */
function placeBack<S extends GameStateCore>(g: S, p: Prisoner): { state: S; area: AreaId | null } {
  const mine = unitsOf(g, p.owner).filter((u) => u.kind !== 'leader' && u.kind !== 'ship');
  const capital = playerById(g, p.owner)?.capital;
  const host =
    mine.find((u) => u.area === capital) ?? [...mine].sort((a, b) => (a.id < b.id ? -1 : 1))[0] ?? null;
  const rest = withPrisoners(
    g,
    prisonersOf(g).filter((x) => x.leader !== p.leader),
  );
  if (!host) return { state: rest, area: null };
  const leader: Unit = { id: p.leader, owner: p.owner, kind: 'leader', area: host.area };
  return { state: { ...rest, units: { ...rest.units, [p.leader]: leader } }, area: host.area };
}

/** 13.6: the owner pays the ransom (income and VP of the captor) and gets its leader back. */
export function ransom<S extends GameStateCore>(g: S, p: Prisoner, amount: number): Step<S> {
  let s = updatePlayer(g, p.owner, (q) => ({ ...q, money: q.money - amount })) as S;
  s = gainIncome(s, p.captor, amount) as S;
  s = patchRealmPlayer(s, p.captor, {
    offPhaseIncome: (realmPlayer(s, p.captor).offPhaseIncome ?? 0) + amount,
  });
  const back = placeBack(s, p);
  return {
    state: back.state,
    events: [
      { type: 'ransomPaid', leader: p.leader, owner: p.owner, captor: p.captor, amount, area: back.area },
    ],
  };
}

/** 13.6: the captor executes its prisoner (during its own player turn). */
export function execute<S extends GameStateCore>(g: S, p: Prisoner): Step<S> {
  const s = withPrisoners(
    g,
    prisonersOf(g).filter((x) => x.leader !== p.leader),
  );
  return {
    state: s,
    events: [{ type: 'leaderExecuted', leader: p.leader, owner: p.owner, captor: p.captor }],
  };
}

/** 13.6: the captor's standing ransom demand (accepted by the owner with `realmRansomAccept`). */
export function offerRansom<S extends GameStateCore>(g: S, p: Prisoner, amount: number): Step<S> {
  const s = withPrisoners(
    g,
    prisonersOf(g).map((x) => (x.leader === p.leader ? { ...x, ransom: amount } : x)),
  );
  return {
    state: s,
    events: [{ type: 'ransomOffered', leader: p.leader, owner: p.owner, captor: p.captor, amount }],
  };
}

/** 13.6: the captor hands the prisoner to another of its units in the holder's area. */
export function movePrisoner<S extends GameStateCore>(g: S, p: Prisoner, holder: UnitId): Step<S> {
  const s = withPrisoners(
    g,
    prisonersOf(g).map((x) => (x.leader === p.leader ? { ...x, holder } : x)),
  );
  return { state: s, events: [{ type: 'prisonerMoved', leader: p.leader, captor: p.captor, holder }] };
}

/** 13.6: the captor's units that may hold this prisoner instead of its holder (same area, not leaders). */
export function otherHolders(g: GameStateCore, p: Prisoner): UnitId[] {
  const holder = g.units[p.holder];
  if (!holder) return [];
  return (unitsByArea(g).get(holder.area) ?? [])
    .filter((u) => u.owner === p.captor && u.kind !== 'leader' && u.id !== p.holder)
    .map((u) => u.id);
}

const stillLeads = (g: GameStateCore, p: Prisoner): boolean => {
  const o = playerById(g, p.owner);
  const stage = o?.status === 'active' ? o.cycle?.stage : undefined;
  if (stage === 'kingdom') return true;
  return stage === 'empire' && LEADER_PROFILES[leaderTypeOf(g, p.owner)].keptInEmpire;
};

/**
 * Did a combat against the leader's owner eliminate this holder (the facts of this order)? The
 * owner was the phasing attacker, a side of a combat resolved in this order, or holds the combat's
 * area (the holder died attacking it).
 */
function killedByFriends(
  g: GameStateCore,
  p: Prisoner,
  events: readonly { type: string }[],
  phasing: PlayerId | null,
): boolean {
  const sides = new Set<PlayerId>(phasing ? [phasing] : []);
  for (const e of events) {
    const x = e as { type: string; attacker?: PlayerId; defender?: PlayerId | null };
    if (x.type === 'combatResolved') for (const q of [x.attacker, x.defender]) if (q) sides.add(q);
  }
  return events.some((e) => {
    const x = e as { type: string; units?: UnitId[]; area?: AreaId | null };
    if (x.type !== 'combatUnitsEliminated' || !x.units?.includes(p.holder)) return false;
    const ownerThere = !!x.area && (unitsByArea(g).get(x.area) ?? []).some((u) => u.owner === p.owner);
    return sides.has(p.owner) || ownerThere;
  });
}

/**
 * 13.6, run after every order: leaders standing with an unfriendly unit are captured (a leader that
 * met one while combat kept it on the board), prisoners follow their holders, a holder
 * eliminated by the leader's side frees it, and prisoners of finished positions are gone.
 */
export function settlePrisoners<S extends GameStateCore>(
  g: S,
  events: readonly { type: string }[],
  phasing: PlayerId | null,
): Step<S> {
  if (!capturesLeaders(g)) return { state: g, events: [] };
  let s = g;
  const out: RealmEvent[] = [];
  // Exposed leaders on the board.
  for (const [, here] of unitsByArea(s)) {
    for (const l of here) {
      if (l.kind !== 'leader') continue;
      const holder = here.find((u) => u.owner !== l.owner && u.kind !== 'leader');
      if (!holder) continue;
      const c = captureLeaders(s, [l], holder);
      s = c.state;
      out.push(...c.events);
    }
  }
  for (const p of prisonersOf(s)) {
    const fixed = LEADER_PROFILES[leaderTypeOf(s, p.owner)].fixedRansom;
    if (fixed !== null && stillLeads(s, p)) {
      // 13.6: a diplomat is released at once for 1 (or what its owner has, if less).
      const r = ransom(s, p, Math.min(fixed, playerById(s, p.owner)?.money ?? 0));
      s = r.state;
      out.push(...r.events);
      continue;
    }
    if (!stillLeads(s, p)) {
      s = withPrisoners(
        s,
        prisonersOf(s).filter((x) => x.leader !== p.leader),
      );
      continue;
    }
    const holder = s.units[p.holder];
    if (holder && holder.owner !== p.owner) {
      // The prisoner is held by that unit: it follows it, and its master (a mercenary going home, 13.4).
      if (holder.area !== p.area || holder.owner !== p.captor)
        s = withPrisoners(
          s,
          prisonersOf(s).map((x) =>
            x.leader === p.leader ? { ...x, area: holder.area, captor: holder.owner as PlayerId } : x,
          ),
        );
      continue;
    }
    // A holder now serving the leader's own side (a lease, 13.4) lets it go.
    const next = holder
      ? undefined
      : (unitsByArea(s).get(p.area) ?? []).find((u) => u.owner === p.captor && u.kind !== 'leader');
    if (next && !killedByFriends(s, p, events, phasing)) {
      const m = movePrisoner(s, p, next.id);
      s = m.state;
      out.push(...m.events);
      continue;
    }
    const back = placeBack(s, p);
    s = back.state;
    out.push({ type: 'leaderFreed', leader: p.leader, owner: p.owner, captor: p.captor, area: back.area });
  }
  return { state: s, events: out };
}
