/**
 * `engine replay <record>`: a record file read, parsed and replayed, every way it can fail named
 * by a record error code (a missing file, text that is not JSON, a record that does not fit the
 * format or whose replay parts from it).
 */
import { readFileSync } from 'node:fs';
import type { Engine } from '../engine.ts';
import type { RecordResult } from '../model/game-record.ts';
import { replayRecord } from '../record/replay.ts';

export interface ReplaySummary {
  readonly hash: string;
  readonly turn: number;
  readonly orders: number;
}

export function replayRecordFile(
  engine: Engine,
  file: string,
  rulesVersion: string,
): RecordResult<ReplaySummary> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    return { ok: false, error: { code: 'record/invalid', message: `cannot read ${file} (${reason})` } };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: { code: 'record/invalid', message: `${file} is not JSON` } };
  }
  const r = replayRecord(engine, raw, rulesVersion);
  if (!r.ok) return r;
  return { ok: true, value: { hash: r.value.hash, turn: r.value.state.turn, orders: r.value.orders } };
}
