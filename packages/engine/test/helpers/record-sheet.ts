/**
 * The turn record sheet (14.3.3) as whoever keeps it from the engine's events sees it: every
 * `ledgerRow` event, a later emission of the same row (player, cycle, turn) replacing the earlier
 * one, in the order the rows first appeared. The server's VP ledger does the same.
 */
import type { GameEvent } from '../../src/model/events.ts';
import type { LedgerRow } from '../../src/model/realm.ts';

export class RecordSheet {
  private readonly byKey = new Map<string, LedgerRow>();

  keep(events: readonly GameEvent[] | readonly unknown[]): this {
    for (const e of events as readonly GameEvent[])
      if (e.type === 'ledgerRow') this.byKey.set(`${e.row.player}|${e.row.cycle}|${e.row.turn}`, e.row);
    return this;
  }

  rows(): LedgerRow[] {
    return [...this.byKey.values()];
  }
}
