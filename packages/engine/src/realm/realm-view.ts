/**
 * What a viewer may see of the realm sub-state (2.4: bookkeeping is open), with the sealed parts
 * taken out: other players' standing bids (13.3), economic plans not yet carried out (4.5) and lease
 * offers between two other players (13.4).
 */
import type { PlayerId } from '../model/ids.ts';
import type { Lease, RealmPlayer, RealmState, RealmView } from '../model/realm.ts';

/** Other players' entries with their sealed parts taken out, kept per entry (see `realmViewFor`). */
const sealedEntries = new WeakMap<RealmPlayer, RealmPlayer>();
/** Views already made of a realm, per viewer ('' for the public one). */
const realmViews = new WeakMap<RealmState, Map<string, RealmView>>();

/**
 * What a viewer may see of the realm sub-state: everything (2.4, bookkeeping is
 * open) except other players' standing bids (sealed, 13.3) and economic plans not yet carried out
 * (decisions made at once, 4.5); the record sheet travels as events (`RealmView`).
 *
 * States are immutable, so the same realm always gives the same view, and an unchanged entry the
 * same sealed copy: a view shares what did not change with the previous one, as the state does,
 * and the server's patch walk (structural sharing) skips it.
 */
export function realmViewFor(realm: RealmState | undefined, viewer: PlayerId | null): RealmView | undefined {
  if (!realm) return realm;
  let byViewer = realmViews.get(realm);
  const cached = byViewer?.get(viewer ?? '');
  if (cached) return cached;
  // 13.4: running leases are public; offers not yet in force only the two parties see.
  const seen = (l: Lease) =>
    l.status === 'active' || l.status === 'ending' || l.owner === viewer || l.hirer === viewer;
  const leases = realm.leases?.every(seen) ? realm.leases : realm.leases?.filter(seen);
  const players: Record<string, RealmPlayer> = {};
  for (const [id, p] of Object.entries(realm.players)) players[id] = id === viewer ? p : sealed(p);
  const { sheet: _sheet, ...open } = realm;
  const view: RealmView = { ...open, players, ...(leases ? { leases } : {}) };
  if (!byViewer) {
    byViewer = new Map();
    realmViews.set(realm, byViewer);
  }
  byViewer.set(viewer ?? '', view);
  return view;
}

function sealed(p: RealmPlayer): RealmPlayer {
  let out = sealedEntries.get(p);
  if (!out) {
    const { bids: _bids, plan: _plan, ...open } = p;
    out = { ...open, plan: null };
    sealedEntries.set(p, out);
  }
  return out;
}
