/**
 * The projections derived from logged events: the chronicle (one row per cycle) and the VP ledger
 * (the turn record sheet, 14.3.3, one row per cycle, turn and column). Events are folded into row
 * changes in memory, then written in ONE statement however many orders and rows they cover: a turn
 * end projects about sixty ledger cells, and one upsert after another held the world's writes up
 * for a second.
 */
import type { GameEvent, GameState } from '@bke/engine';
import type { Database } from '../db/database.ts';

/** Events that change the projections; others skip the projection step entirely. */
export const PROJECTED_EVENTS = new Set([
  'cycleStarted',
  'becameKingdom',
  'becameEmpire',
  'cycleEnded',
  'vpGained',
  'ledgerRow',
]);

/** The engine's turn record sheet row (`ledgerRow` event): columns 1–10 are numbers, 11 a result. */
type LedgerRowEvent = Extract<GameEvent, { type: 'ledgerRow' }>['row'];

/** Sheet columns stored per row; `vpTotal` is column 4 (the cycle's VP so far). */
const LEDGER_COLUMNS = [
  ['tax', 'tax'],
  ['other', 'other'],
  ['vpTotal', 'vp'],
  ['carried', 'carried'],
  ['available', 'available'],
  ['upkeep', 'upkeep'],
  ['purchases', 'purchases'],
  ['administration', 'administration'],
  ['treasury', 'treasury'],
  ['adminPercent', 'adminPercent'],
] as const;

interface CycleChange {
  player_id: string;
  number: number;
  /** Set by `cycleStarted`: the row is created (with every later change of the batch). */
  started: boolean;
  position: string | null;
  start_turn: number | null;
  kingdom_turn: number | null;
  empire_turn: number | null;
  end_turn: number | null;
  end_reason: string | null;
  vp: number | null;
  seq: number;
}

interface LedgerChange {
  player_id: string;
  cycle: number;
  turn: number;
  column: string;
  value: number;
  detail: unknown;
  /** `vpGained` adds to the cell; every other change sets it. */
  add: boolean;
  seq: number;
}

/** Row changes folded from events, later events over earlier ones, written by `write`. */
export class ProjectionBatch {
  private readonly cycles = new Map<string, CycleChange>();
  private readonly ledger = new Map<string, LedgerChange>();

  get size(): number {
    return this.cycles.size + this.ledger.size;
  }

  /** The events of order `seq`, with `state` the state after its commit (it numbers the cycles). */
  add(seq: number, state: GameState, events: readonly GameEvent[]): this {
    for (const e of events) {
      if (e.type === 'cycleStarted') {
        const c = this.cycle(e.player, e.cycle, seq);
        c.started = true;
        c.position = e.position;
        c.start_turn = state.turn;
      } else if (e.type === 'becameKingdom' || e.type === 'becameEmpire') {
        const number = cycleNumberOf(state, e.player);
        if (number === null) continue;
        const c = this.cycle(e.player, number, seq);
        if (e.type === 'becameKingdom') c.kingdom_turn = e.turn;
        else c.empire_turn = e.turn;
      } else if (e.type === 'cycleEnded') {
        // The cycle that ended is the player's latest finished one (cycles are numbered 1, 2, …).
        const number = state.players.find((q) => q.id === e.player)?.finished.count ?? 0;
        if (number === 0) continue;
        const c = this.cycle(e.player, number, seq);
        c.end_turn = state.turn;
        c.end_reason = e.reason;
        c.vp = e.vp;
      } else if (e.type === 'vpGained') {
        const number = cycleNumberOf(state, e.player);
        if (number === null) continue;
        const key = `${e.player}|${number}|${state.turn}|vp`;
        const prev = this.ledger.get(key);
        this.ledger.set(key, {
          player_id: e.player,
          cycle: number,
          turn: state.turn,
          column: 'vp',
          value: (prev?.value ?? 0) + e.vp,
          detail: null,
          add: true,
          seq,
        });
        this.cycle(e.player, number, seq).vp = e.total;
      } else if (e.type === 'ledgerRow') {
        this.ledgerRow(seq, e.row);
      }
    }
    return this;
  }

  /** A sheet row replaces what an earlier emission of the same row stored (set, not add). */
  private ledgerRow(seq: number, row: LedgerRowEvent): void {
    const base = { player_id: row.player, cycle: row.cycle, turn: row.turn, add: false, seq };
    for (const [column, field] of LEDGER_COLUMNS)
      this.ledger.set(`${row.player}|${row.cycle}|${row.turn}|${column}`, {
        ...base,
        column,
        value: row[field],
        detail: null,
      });
    const a = row.adminResult;
    if (a) {
      // Column 11: the roll as the value, the rest as detail (an earlier emission is replaced).
      this.ledger.set(`${row.player}|${row.cycle}|${row.turn}|adminResult`, {
        ...base,
        column: 'adminResult',
        value: a.roll,
        detail: { result: a.result, rebellions: [...a.rebellions], becameEmpire: a.becameEmpire },
      });
    }
    this.cycle(row.player, row.cycle, seq).vp = row.vp;
  }

  private cycle(player: string, number: number, seq: number): CycleChange {
    const key = `${player}|${number}`;
    let c = this.cycles.get(key);
    if (!c) {
      c = {
        player_id: player,
        number,
        started: false,
        position: null,
        start_turn: null,
        kingdom_turn: null,
        empire_turn: null,
        end_turn: null,
        end_reason: null,
        vp: null,
        seq,
      };
      this.cycles.set(key, c);
    }
    c.seq = seq;
    return c;
  }

  /**
   * Writes every change in one statement (idempotent: a replayed batch stores the same rows). A
   * cycle started in the batch is inserted with all its changes, since the statement's UPDATE does
   * not see rows its own INSERT adds; the UPDATE serves cycles started earlier.
   */
  async write(db: Database, worldId: string): Promise<void> {
    if (this.size === 0) return;
    await db.sql(
      `WITH c AS (
         SELECT * FROM jsonb_to_recordset($2::jsonb) AS r(
           player_id text, number int, started boolean, position text, start_turn int, kingdom_turn int,
           empire_turn int, end_turn int, end_reason text, vp int, seq int)),
       l AS (
         SELECT * FROM jsonb_to_recordset($3::jsonb) AS r(
           player_id text, cycle int, turn int, "column" text, value int, detail jsonb, "add" boolean, seq int)),
       started AS (
         INSERT INTO world_cycles (world_id, player_id, number, position, start_turn, kingdom_turn,
                                   empire_turn, end_turn, end_reason, vp, updated_seq)
         SELECT $1, player_id, number, position, start_turn, kingdom_turn, empire_turn, end_turn,
                end_reason, coalesce(vp, 0), seq
           FROM c WHERE started
         ON CONFLICT (world_id, player_id, number) DO NOTHING),
       changed AS (
         UPDATE world_cycles w
            SET kingdom_turn = coalesce(c.kingdom_turn, w.kingdom_turn),
                empire_turn = coalesce(c.empire_turn, w.empire_turn),
                end_turn = coalesce(c.end_turn, w.end_turn),
                end_reason = coalesce(c.end_reason, w.end_reason),
                vp = coalesce(c.vp, w.vp),
                updated_seq = c.seq
           FROM c
          WHERE w.world_id = $1 AND w.player_id = c.player_id AND w.number = c.number),
       added AS (
         INSERT INTO vp_ledger (world_id, player_id, cycle, turn, "column", value, detail, seq)
         SELECT $1, player_id, cycle, turn, "column", value, detail, seq FROM l WHERE "add"
         ON CONFLICT (world_id, player_id, cycle, turn, "column")
           DO UPDATE SET value = vp_ledger.value + EXCLUDED.value, seq = EXCLUDED.seq)
       INSERT INTO vp_ledger (world_id, player_id, cycle, turn, "column", value, detail, seq)
       SELECT $1, player_id, cycle, turn, "column", value, detail, seq FROM l WHERE NOT "add"
       ON CONFLICT (world_id, player_id, cycle, turn, "column")
         DO UPDATE SET value = EXCLUDED.value, detail = EXCLUDED.detail, seq = EXCLUDED.seq`,
      [worldId, JSON.stringify([...this.cycles.values()]), JSON.stringify([...this.ledger.values()])],
      'bke_project_events',
    );
  }
}

const cycleNumberOf = (state: GameState, player: string): number | null =>
  state.players.find((p) => p.id === player)?.cycle?.number ?? null;

/** Cycles and VP ledger rows from a committed order's events, in one statement. */
export async function projectEvents(
  db: Database,
  worldId: string,
  seq: number,
  state: GameState,
  events: readonly GameEvent[],
): Promise<void> {
  await new ProjectionBatch().add(seq, state, events).write(db, worldId);
}
