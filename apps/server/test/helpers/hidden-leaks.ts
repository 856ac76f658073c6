/**
 * Another player's private information, searched for in anything a viewer received (a message, a
 * replayed turn, a downloaded record). Written from the rules, not from the server's code: a lease
 * event before the lease runs, or a lease offered or accepted, names its two parties (13.4); a
 * standing bid names its bidder (13.3); a plan sits in its maker's realm entry (4.5).
 */
import type { PlayerId } from '@bke/engine';

const LEASE_EVENTS = new Set(['leaseOffered', 'leaseAccepted', 'leaseLapsed', 'leaseEnded']);
export const PRIVATE_STATUSES = new Set(['offered', 'accepted']);
export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;

/**
 * Every piece of another player's private information in `value` (found at JSON pointer `path`),
 * as `viewer` must never see it. Written from the rules, not from the server's code: a lease event
 * before the lease runs, or a lease offered or accepted, names its two parties; a standing bid
 * names its bidder; a plan sits in its maker's realm entry.
 */
export function leaks(value: unknown, path: string, viewer: PlayerId | null, out: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) leaks(v, `${path}/${i}`, viewer, out);
    return out;
  }
  if (!isObj(value)) return out;
  const party = (o: Obj) => viewer !== null && (o.owner === viewer || o.hirer === viewer);
  if (typeof value.type === 'string' && LEASE_EVENTS.has(value.type)) {
    const open = value.type === 'leaseEnded' && value.atTurnStart === true;
    if (!open && !party(value)) out.push(`${path}: ${value.type} between ${value.owner} and ${value.hirer}`);
  }
  if (
    'hirer' in value &&
    typeof value.status === 'string' &&
    PRIVATE_STATUSES.has(value.status) &&
    !party(value)
  )
    out.push(`${path}: a lease ${value.status} between ${value.owner} and ${value.hirer}`);
  if ('bidder' in value && 'auctioneer' in value && value.bidder !== viewer)
    out.push(`${path}: a standing bid of ${value.bidder}`);
  const sealed = /\/realm\/players\/([^/]+)\/(plan|bids)$/.exec(path);
  if (sealed && sealed[1] !== viewer) out.push(`${path}: the ${sealed[2]} of ${sealed[1]}`);
  const entry = /\/realm\/players\/([^/]+)$/.exec(path)?.[1];
  if (entry !== undefined && entry !== viewer) {
    if (value.plan !== null && value.plan !== undefined) out.push(`${path}: the plan of ${entry}`);
    if ('bids' in value) out.push(`${path}: the bids of ${entry}`);
  }
  for (const [k, v] of Object.entries(value)) leaks(v, `${path}/${k}`, viewer, out);
  return out;
}
