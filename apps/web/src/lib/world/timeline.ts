/**
 * The event log as it now stands: a moderator's rollback undoes the orders between the order it
 * returned to and itself, so their events leave every history, live and after a reload. (An undone
 * order of a player is left out by the server, which knows who gave each order: see the
 * subscription's `recent` events.)
 */
import type { LoggedEvent } from './link.ts';

/** A logged event's key: the order (version) that produced it, then its place among that order's events. */
export const logKey = (seq: number, index: number) => seq * 1000 + index;
/** The order (version) a logged event's key belongs to. */
export const orderOf = (key: number) => Math.floor(key / 1000);

/** Drops the events of orders a later rollback undid. */
export function liveLog(log: readonly LoggedEvent[]): LoggedEvent[] {
  const cuts: { from: number; to: number }[] = [];
  for (const l of log)
    if (l.event.type === 'worldRolledBack' && typeof l.event.toSeq === 'number')
      cuts.push({ from: l.event.toSeq, to: orderOf(l.seq) });
  if (cuts.length === 0) return [...log];
  return log.filter((l) => {
    const seq = orderOf(l.seq);
    return !cuts.some((c) => seq > c.from && seq < c.to);
  });
}
