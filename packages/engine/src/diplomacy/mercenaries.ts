/**
 * 13.4 Mercenary agreements (opt.mercenaries, AMBIG-21). Only a barbarian-stage player leases
 * combat units, and only to a kingdom or an empire. Players cannot talk at the table online, so a
 * lease is an offer → accept exchange of orders given at any time; it takes effect at the start of
 * the next game turn, before anyone moves, when the price is paid (income and VP of the barbarian,
 * 14.3.1, record-sheet column 3). Either side may end it; the end takes effect at the start of the
 * next turn (an offer not yet in force is withdrawn at once).
 *
 * While a lease runs the units are the hirer's to command: the engine hands them to the hirer
 * (`unit.owner`), so the hirer's legal orders move and attack with them, they stack with its units
 * and ride its ships, the cities they hold are the hirer's (tax, AMBIG-21) and the hirer chooses
 * their exchange losses. The lease (in `realm.leases`) keeps the barbarian as their owner for
 * counting — tribal unrest and the countdown count them (AMBIG-21), its units pass through them —
 * and they pay no upkeep (their barbarian kinds have none). They come back at the end of the lease.
 */
import type { EngineContext } from '../model/context.ts';
import type { RealmEvent } from '../model/events.ts';
import type { AreaId, PlayerId, UnitId } from '../model/ids.ts';
import { cityAt, playerById, unitsByArea } from '../model/queries.ts';
import type { Lease } from '../model/realm.ts';
import { patchRealm, patchRealmPlayer, realmOf, realmPlayer } from '../model/realm.ts';
import type { GameStateCore } from '../model/state.ts';
import { gainIncome, omitKeys, updatePlayer } from '../model/state-ops.ts';
import { kingdomKindOf } from '../model/units.ts';

interface Step<S> {
  readonly state: S;
  readonly events: RealmEvent[];
}

/** 13.4: every lease, offered, running or ending. */
export const leasesOf = (g: GameStateCore): readonly Lease[] => realmOf(g).leases ?? [];

const withLeases = <S extends GameStateCore>(g: S, leases: readonly Lease[]): S => patchRealm(g, { leases });

const samePair = (l: Lease, owner: PlayerId, hirer: PlayerId) => l.owner === owner && l.hirer === hirer;

/** 13.4: the lease between these two players, if any. */
export const leaseBetween = (g: GameStateCore, owner: PlayerId, hirer: PlayerId): Lease | undefined =>
  leasesOf(g).find((l) => samePair(l, owner, hirer));

/** 13.4: units of `owner` now in a hirer's hands (the lease running or ending). */
export function leasedOut(g: GameStateCore, owner: PlayerId): UnitId[] {
  return leasesOf(g)
    .filter((l) => l.owner === owner && (l.status === 'active' || l.status === 'ending'))
    .flatMap((l) => l.units)
    .filter((id) => g.units[id] !== undefined);
}

/** 13.4: is this unit a mercenary now (commanded by a hirer)? */
export const isLeased = (g: GameStateCore, unit: UnitId): boolean =>
  leasesOf(g).some((l) => (l.status === 'active' || l.status === 'ending') && l.units.includes(unit));

const stageOf = (g: GameStateCore, id: PlayerId) => {
  const p = playerById(g, id);
  return p?.status === 'active' ? p.cycle?.stage : undefined;
};

/** 13.4: may `owner` lease units to `hirer` (a barbarian to a kingdom or empire, option on)? */
export function mayLease(g: GameStateCore, owner: PlayerId, hirer: PlayerId): boolean {
  if (!g.options.opt.mercenaries || owner === hirer) return false;
  const hs = stageOf(g, hirer);
  return stageOf(g, owner) === 'barbarian' && (hs === 'kingdom' || hs === 'empire');
}

/** 13.4: the units `owner` could offer: its combat units (not tribes) not in another agreement. */
export function leasableUnits(g: GameStateCore, owner: PlayerId, hirer: PlayerId): UnitId[] {
  const taken = new Set(leasesOf(g).flatMap((l) => (samePair(l, owner, hirer) ? [] : l.units)));
  return Object.values(g.units)
    .filter((u) => u.owner === owner && u.kind !== 'tribe' && u.kind !== 'leader' && !taken.has(u.id))
    .map((u) => u.id)
    .sort();
}

/** 13.4: why an offer is not legal, or null. */
export function offerProblem(
  g: GameStateCore,
  owner: PlayerId,
  hirer: PlayerId,
  units: readonly UnitId[],
): string | null {
  if (!mayLease(g, owner, hirer)) return 'notBarbarianToRealm';
  const cur = leaseBetween(g, owner, hirer);
  if (cur && cur.status !== 'offered') return 'leaseRunning';
  const ok = new Set(leasableUnits(g, owner, hirer));
  if (units.length === 0 || new Set(units).size !== units.length) return 'units';
  return units.every((u) => ok.has(u)) ? null : 'units';
}

/** 13.4: the barbarian offers these units for this price (replacing its earlier offer to that hirer). */
export function offerLease<S extends GameStateCore>(
  g: S,
  owner: PlayerId,
  hirer: PlayerId,
  units: readonly UnitId[],
  price: number,
): Step<S> {
  const rest = leasesOf(g).filter((l) => !samePair(l, owner, hirer));
  const lease: Lease = { owner, hirer, units: [...units].sort(), price, status: 'offered', turn: g.turn };
  return {
    state: withLeases(g, [...rest, lease]),
    events: [{ type: 'leaseOffered', owner, hirer, units: [...lease.units], price }],
  };
}

/** 13.4: the hirer accepts the offer; it takes effect at the next turn start. */
export function acceptLease<S extends GameStateCore>(g: S, owner: PlayerId, hirer: PlayerId): Step<S> {
  const leases = leasesOf(g).map((l) =>
    samePair(l, owner, hirer) ? { ...l, status: 'accepted' as const, turn: g.turn } : l,
  );
  const price = leaseBetween(g, owner, hirer)?.price ?? 0;
  return { state: withLeases(g, leases), events: [{ type: 'leaseAccepted', owner, hirer, price }] };
}

/** 13.4: either side ends the agreement: an offer goes at once, a running lease at the next turn start. */
export function endLease<S extends GameStateCore>(
  g: S,
  owner: PlayerId,
  hirer: PlayerId,
  by: PlayerId,
): Step<S> {
  const cur = leaseBetween(g, owner, hirer);
  if (!cur) return { state: g, events: [] };
  const running = cur.status === 'active';
  const leases = running
    ? leasesOf(g).map((l) => (l === cur ? { ...l, status: 'ending' as const, turn: g.turn } : l))
    : leasesOf(g).filter((l) => l !== cur);
  return {
    state: withLeases(g, leases),
    events: [{ type: 'leaseEnded', owner, hirer, by, atTurnStart: running }],
  };
}

/** Hand units over (to the hirer at the start, back to the owner at the end). */
function handOver<S extends GameStateCore>(g: S, ids: readonly UnitId[], to: PlayerId): S {
  const units = { ...g.units };
  const stage = stageOf(g, to);
  for (const id of ids) {
    const u = units[id];
    if (!u) continue;
    // Back to an owner who has become a kingdom meanwhile: the units turn over like its own did (10.1).
    const kind = stage === 'kingdom' && u.owner !== to ? kingdomKindOf(u.kind) : u.kind;
    if (kind === null) delete units[id];
    else units[id] = { ...u, owner: to, kind };
  }
  return { ...g, units };
}

/** Units of this lease standing with none of the hirer's own pieces (they may go home at once). */
const apartFromHirer = (g: GameStateCore, l: Lease, id: UnitId): boolean => {
  const u = g.units[id];
  if (!u) return false;
  return Object.values(g.units).every(
    (x) => x.area !== u.area || x.owner !== l.hirer || l.units.includes(x.id),
  );
};

/**
 * The units go home and the lease is gone. Engine decision: a mercenary still stacked with the
 * hirer's own pieces stays under the hirer's command (the lease `ending`) until it stands apart,
 * since an area never holds two players' units.
 */
function dissolve<S extends GameStateCore>(
  g: S,
  l: Lease,
  reason: 'ended' | 'ownerGone' | 'hirerGone',
): Step<S> {
  const alive = l.units.filter((id) => g.units[id]);
  const owner = stageOf(g, l.owner);
  let s = g;
  let going = alive;
  if (owner) {
    going = alive.filter((id) => apartFromHirer(g, l, id));
    s = handOver(s, going, l.owner);
  } else {
    // The owner has no position any more: its mercenaries leave the board.
    s = { ...s, units: omitKeys(s.units, alive) };
  }
  const staying = alive.filter((id) => !going.includes(id));
  s = withLeases(
    s,
    staying.length
      ? leasesOf(s).map((x) =>
          samePair(x, l.owner, l.hirer) ? { ...x, units: staying, status: 'ending' as const } : x,
        )
      : leasesOf(s).filter((x) => !samePair(x, l.owner, l.hirer)),
  );
  if (going.length === 0 && staying.length) return { state: s, events: [] };
  return {
    state: s,
    events: [{ type: 'leaseDissolved', owner: l.owner, hirer: l.hirer, units: going, reason }],
  };
}

/**
 * 13.4, at the start of each game turn, before anyone moves: accepted leases take effect (the hirer
 * pays the price, the units change hands) unless the hirer cannot pay or the parties no longer
 * qualify; ending leases give their units back.
 */
export function leasesAtTurnStart<S extends GameStateCore>(g: S): Step<S> {
  let s = g;
  const events: RealmEvent[] = [];
  for (const l of leasesOf(g)) {
    if (l.status === 'ending') {
      const d = dissolve(s, l, 'ended');
      s = d.state;
      events.push(...d.events);
      continue;
    }
    if (l.status !== 'accepted') continue;
    // Only units standing apart from the owner's others change hands (one owner an area).
    const units = l.units.filter(
      (id) =>
        s.units[id]?.owner === l.owner &&
        Object.values(s.units).every(
          (x) => x.area !== s.units[id]!.area || x.owner !== l.owner || l.units.includes(x.id),
        ),
    );
    const money = playerById(s, l.hirer)?.money ?? 0;
    if (!mayLease(s, l.owner, l.hirer) || units.length === 0 || money < l.price) {
      s = withLeases(
        s,
        leasesOf(s).filter((x) => !samePair(x, l.owner, l.hirer)),
      );
      events.push({ type: 'leaseLapsed', owner: l.owner, hirer: l.hirer });
      continue;
    }
    s = updatePlayer(s, l.hirer, (q) => ({ ...q, money: q.money - l.price })) as S;
    s = gainIncome(s, l.owner, l.price) as S;
    s = patchRealmPlayer(s, l.owner, {
      offPhaseIncome: (realmPlayer(s, l.owner).offPhaseIncome ?? 0) + l.price,
    });
    s = handOver(s, units, l.hirer);
    s = withLeases(
      s,
      leasesOf(s).map((x) =>
        samePair(x, l.owner, l.hirer) ? { ...x, units, status: 'active' as const, turn: s.turn } : x,
      ),
    );
    events.push({ type: 'leaseStarted', owner: l.owner, hirer: l.hirer, units, price: l.price });
  }
  return { state: s, events };
}

/**
 * 13.4: run after every order: a running lease whose owner is no longer a barbarian (or has left) or
 * whose hirer no longer holds a kingdom or empire ends at once; units eliminated leave the lease;
 * a lease with no unit left is over.
 */
export function settleLeases<S extends GameStateCore>(g: S): Step<S> {
  const leases = leasesOf(g);
  if (leases.length === 0) return { state: g, events: [] };
  let s = g;
  const events: RealmEvent[] = [];
  for (const l of leases) {
    const running = l.status === 'active' || l.status === 'ending';
    const ownerOk = stageOf(s, l.owner) === 'barbarian';
    const hs = stageOf(s, l.hirer);
    const hirerOk = hs === 'kingdom' || hs === 'empire';
    if (!running) {
      if (!ownerOk || !hirerOk)
        s = withLeases(
          s,
          leasesOf(s).filter((x) => !samePair(x, l.owner, l.hirer)),
        );
      continue;
    }
    if (!ownerOk || !hirerOk) {
      const d = dissolve(s, l, ownerOk ? 'hirerGone' : 'ownerGone');
      s = d.state;
      events.push(...d.events);
      continue;
    }
    const alive = l.units.filter((id) => s.units[id]);
    if (alive.length === l.units.length) continue;
    s = withLeases(
      s,
      alive.length
        ? leasesOf(s).map((x) => (samePair(x, l.owner, l.hirer) ? { ...x, units: alive } : x))
        : leasesOf(s).filter((x) => !samePair(x, l.owner, l.hirer)),
    );
    if (!alive.length)
      events.push({ type: 'leaseDissolved', owner: l.owner, hirer: l.hirer, units: [], reason: 'ended' });
  }
  return { state: s, events };
}

/** 13.4: the cities the hirer has chosen for its mercenaries to pillage this turn. */
export function mercenaryPillageChosen(g: GameStateCore, hirer: PlayerId): readonly AreaId[] {
  const m = realmPlayer(g, hirer).mercenaryPillage;
  return m?.turn === g.turn ? m.areas : [];
}

/**
 * 13.4 / AMBIG-21 (cfg.mercenaryPillageAllowed): the cities a hirer may have its mercenaries
 * pillage instead of taxing them: its own cities (not the capital) without a marker where one of its
 * hired units stands. The loot (9.5: three times the city's value) goes to the units' owner.
 */
export function mercenaryPillageable(ctx: EngineContext, g: GameStateCore, hirer: PlayerId): AreaId[] {
  if (!g.options.opt.mercenaries || !ctx.options.cfg.mercenaryPillageAllowed) return [];
  const capital = playerById(g, hirer)?.capital;
  const byArea = unitsByArea(g);
  return leasesOf(g)
    .filter((l) => l.hirer === hirer && (l.status === 'active' || l.status === 'ending'))
    .flatMap((l) => l.units.map((id) => g.units[id]?.area).filter((a): a is AreaId => !!a))
    .filter(
      (a, i, all) =>
        all.indexOf(a) === i &&
        a !== capital &&
        !!cityAt(ctx, a) &&
        g.cities[a]?.owner === hirer &&
        !g.markers.some((m) => m.area === a) &&
        (byArea.get(a) ?? []).some((u) => u.owner === hirer && isLeased(g, u.id)),
    )
    .sort();
}

/** 13.4, AMBIG-21: whose mercenary stands in this area for this hirer (the owner who gets the loot). */
export function mercenaryOwnerAt(g: GameStateCore, hirer: PlayerId, area: AreaId): PlayerId | null {
  const l = leasesOf(g).find(
    (x) =>
      x.hirer === hirer && x.units.some((id) => g.units[id]?.area === area && g.units[id]?.owner === hirer),
  );
  return l?.owner ?? null;
}
