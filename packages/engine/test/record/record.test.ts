/**
 * Game records: a simulated game's complete record survives being written out as JSON and read
 * back, replays to the very state the game ended in (its hash), and every way a record can part
 * from its game is refused with a code that says which.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayRecordFile } from '../../src/cli/replay-record.ts';
import {
  type CompleteRecord,
  completeRecordOf,
  createEngine,
  gameRecordSchema,
  gameSetupSchema,
  RULES_VERSION,
  replayRecord,
  simSetup,
  simulate,
} from '../../src/index.ts';

const engine = createEngine();

function simulatedRecord(seed: string, players: number, turns: number) {
  const setup = simSetup(seed, players);
  const run = simulate(engine, setup, turns);
  const record = completeRecordOf(engine, gameSetupSchema.parse(setup), run.log, run.final);
  return { run, record, text: JSON.stringify(record) };
}

const copy = (r: CompleteRecord): CompleteRecord => JSON.parse(JSON.stringify(r));

describe('a complete record of a simulated game', () => {
  it('of 200 game turns replays to the final hash the game ended with', { timeout: 120_000 }, () => {
    const { run, text } = simulatedRecord('record-200', 3, 200);
    expect(run.final.turn).toBeGreaterThan(200);
    const read = JSON.parse(text) as unknown;
    expect(gameRecordSchema.safeParse(read).success).toBe(true);
    const r = replayRecord(engine, read, RULES_VERSION);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.hash).toBe(run.summary.hash);
    expect(r.value.hash).toBe(engine.hash(run.final));
    expect(r.value.orders).toBe(run.log.length);
  });

  const short = simulatedRecord('record-short', 2, 6).record;

  it('whose final hash was changed is refused as a hash mismatch', () => {
    const r = copy(short);
    r.final.hash = '0123456789abcdef';
    const out = replayRecord(engine, r, RULES_VERSION);
    expect(out.ok ? null : out.error.code).toBe('record/hash_mismatch');
  });

  it('with an order taken out parts from the game: refused where it parts, or at the hash', () => {
    const r = copy(short);
    r.orders.splice(Math.floor(r.orders.length / 2), 1);
    const out = replayRecord(engine, r, RULES_VERSION);
    expect(out.ok ? null : out.error.code).toMatch(/^record\/(order_refused|hash_mismatch)$/);
  });

  it('with another seed replays other dice and is refused', () => {
    const r = copy(short);
    r.setup.seed = 'another seed';
    const out = replayRecord(engine, r, RULES_VERSION);
    expect(out.ok ? null : out.error.code).toMatch(/^record\/(order_refused|hash_mismatch)$/);
  });

  it('is refused when it does not fit the format, names another format, or a later version', () => {
    const bad = copy(short) as unknown as { orders: { order: unknown }[] };
    (bad.orders[0] as { order: unknown }).order = { type: 'teleport' };
    const codeOf = (raw: unknown) => {
      const out = replayRecord(engine, raw, RULES_VERSION);
      return out.ok ? null : out.error.code;
    };
    expect(codeOf(bad)).toBe('record/invalid');
    expect(codeOf({ ...copy(short), format: 'pgn' })).toBe('record/unknown_format');
    expect(codeOf({ ...copy(short), version: 2 })).toBe('record/unknown_version');
    expect(codeOf([])).toBe('record/unknown_format');
    expect(codeOf({ ...copy(short), rulesVersion: 'bke-open-0' })).toBe('record/rules_mismatch');
    expect(codeOf({ ...copy(short), mapVersion: 'another-map' })).toBe('record/map_mismatch');
  });

  it('refuses a player name with control characters', () => {
    const r = copy(short);
    const first = r.setup.players[0];
    if (!first) throw new Error('no player');
    first.name = 'Ala\u0007ric';
    expect(gameRecordSchema.safeParse(r).success).toBe(false);
  });

  it("refuses to replay a viewer's record, which holds only what its viewer saw", () => {
    const viewer = {
      format: 'bke-record',
      version: 1,
      kind: 'viewer',
      rulesVersion: RULES_VERSION,
      mapVersion: engine.map.version,
      viewer: { seats: ['p1'] },
      setup: { options: short.setup.options, players: [] },
      orders: [{ seq: 1, at: '2026-11-21T12:00:00.000Z', events: [{ type: 'turnStarted', turn: 1 }] }],
      final: { turn: 1 },
    };
    expect(gameRecordSchema.safeParse(viewer).success).toBe(true);
    const out = replayRecord(engine, viewer, RULES_VERSION);
    expect(out.ok ? null : out.error.code).toBe('record/not_replayable');
  });
});

describe('engine replay <record>, as the command reads a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bke-record-'));
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const { record, run } = simulatedRecord('record-file', 2, 4);

  it('prints the final hash of a record file', () => {
    const r = replayRecordFile(engine, write('good.json', JSON.stringify(record)), RULES_VERSION);
    expect(r.ok ? r.value : r.error).toEqual({
      hash: run.summary.hash,
      turn: run.final.turn,
      orders: run.log.length,
    });
  });

  it('names a missing file, a file that is not JSON and a record that parts from its game', () => {
    const codeOf = (file: string) => {
      const r = replayRecordFile(engine, file, RULES_VERSION);
      return r.ok ? null : `${r.error.code} ${r.error.message}`;
    };
    expect(codeOf(join(dir, 'absent.json'))).toMatch(/^record\/invalid cannot read .*ENOENT/);
    expect(codeOf(write('text.json', 'turn 1: p1 moves'))).toMatch(/^record\/invalid .* is not JSON$/);
    const changed = copy(record);
    changed.final.hash = 'ffffffffffffffff';
    expect(codeOf(write('changed.json', JSON.stringify(changed)))).toMatch(/^record\/hash_mismatch /);
  });
});
