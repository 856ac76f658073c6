/**
 * Replaying a complete game record through the engine: the set-up is created again from its seed,
 * options and players, every order is applied in turn by its actor, and the final state's hash is
 * compared with the one the record gives. Any difference is a typed refusal naming where the
 * replay parted from the record; nothing here throws for a bad record.
 */
import type { Engine } from '../engine.ts';
import {
  type CompleteRecord,
  completeRecordSchema,
  parseRecord,
  type RecordResult,
  refuseRecord as refuse,
} from '../model/game-record.ts';
import type { PlayerId } from '../model/ids.ts';
import type { GameState } from '../model/state.ts';

export interface Replayed {
  readonly state: GameState;
  readonly hash: string;
  readonly orders: number;
}

/**
 * Replays a complete record (`rulesVersion` is that of the engine's set-up; a record of other
 * rules is refused, as its orders mean something else there).
 */
export function replayRecord(engine: Engine, raw: unknown, rulesVersion: string): RecordResult<Replayed> {
  const parsed = parseRecord(raw);
  if (!parsed.ok) return parsed;
  const record = parsed.value;
  if (record.kind !== 'complete')
    return refuse(
      'record/not_replayable',
      "a viewer's record of a world still in play holds only what its viewer saw, and cannot be replayed",
    );
  return replayComplete(engine, completeRecordSchema.parse(record), rulesVersion);
}

function replayComplete(
  engine: Engine,
  record: CompleteRecord,
  rulesVersion: string,
): RecordResult<Replayed> {
  if (record.rulesVersion !== rulesVersion)
    return refuse(
      'record/rules_mismatch',
      `recorded under rules ${record.rulesVersion}, this engine plays ${rulesVersion}`,
      {
        recorded: record.rulesVersion,
        engine: rulesVersion,
      },
    );
  if (record.mapVersion !== engine.map.version)
    return refuse(
      'record/map_mismatch',
      `recorded on map ${record.mapVersion}, this engine has map ${engine.map.version}`,
      {
        recorded: record.mapVersion,
        engine: engine.map.version,
      },
    );
  const created = engine.createGame({ ...record.setup, rulesVersion: record.rulesVersion });
  if (!created.ok)
    return refuse('record/setup_refused', `the engine refused the set-up (${created.error.code})`, {
      engineError: created.error,
    });
  let state = created.value;
  for (const o of record.orders) {
    const r = engine.applyOrder(state, o.actor as PlayerId | 'system', o.order);
    if (!r.ok)
      return refuse(
        'record/order_refused',
        `order ${o.seq} (${o.order.type} by ${o.actor}) was refused: ${r.error.code}`,
        { seq: o.seq, engineError: r.error },
      );
    state = r.value.state;
  }
  const hash = engine.hash(state);
  if (hash !== record.final.hash)
    return refuse(
      'record/hash_mismatch',
      `the replayed final state has hash ${hash}, the record says ${record.final.hash}`,
      { expected: record.final.hash, actual: hash },
    );
  return { ok: true, value: { state, hash, orders: record.orders.length } };
}
