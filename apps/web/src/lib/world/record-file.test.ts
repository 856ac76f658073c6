import { RECORD_ERROR_CODES } from '@bke/protocol';
import { describe, expect, it } from 'vitest';
import { errorWords } from '../words.ts';
import { readRecordText, recordLog, recordPlayerNames, recordTitle } from './record-file.ts';

const join = { type: 'join', player: 'p1', name: 'Alaric', seat: 0, colour: 'red' };
const complete = {
  format: 'bke-record',
  version: 1,
  kind: 'complete',
  rulesVersion: 'bke-open-1',
  mapVersion: 'm1',
  setup: { seed: 's', options: {}, players: [] },
  orders: [{ seq: 1, actor: 'system', kind: 'system', at: null, order: join }],
  final: { turn: 0, hash: '0123456789abcdef' },
};
const viewer = {
  format: 'bke-record',
  version: 1,
  kind: 'viewer',
  rulesVersion: 'bke-open-1',
  mapVersion: 'm1',
  viewer: { seats: ['p1'] },
  setup: { options: {}, players: [] },
  orders: [
    { seq: 1, at: '2026-11-21T12:00:00.000Z', actor: 'system', kind: 'system', order: join, events: [] },
    { seq: 2, at: '2026-11-21T12:00:01.000Z', events: [{ type: 'turnStarted', turn: 1 }] },
    { seq: 3, at: '2026-11-21T12:00:02.000Z', events: [{ type: 'cycleStarted', player: 'p1' }] },
  ],
  final: { turn: 1 },
};

describe('a game record opened from a file', () => {
  it('reads a complete record and says what it is', () => {
    const r = readRecordText(JSON.stringify(complete));
    if (!r.ok) throw new Error(r.error.message);
    expect(recordTitle(r.value)).toContain('complete record: 1 orders to game turn 0');
    expect(recordPlayerNames(r.value).get('p1')).toBe('Alaric');
  });

  it("tells a finished world's events in their turns, and nothing of a record written without them", () => {
    const withEvents = {
      ...complete,
      orders: [
        { ...complete.orders[0], events: [{ type: 'playerJoined', player: 'p1', seat: 0, turn: 0 }] },
        {
          seq: 2,
          actor: 'system',
          kind: 'system',
          at: null,
          order: join,
          events: [{ type: 'turnStarted', turn: 1 }],
        },
      ],
    };
    const r = readRecordText(JSON.stringify(withEvents));
    if (!r.ok) throw new Error(r.error.message);
    expect(recordLog(r.value).map((l) => [l.seq, l.turn, l.event.type])).toEqual([
      [1, 0, 'playerJoined'],
      [2, 1, 'turnStarted'],
    ]);
    const bare = readRecordText(JSON.stringify(complete));
    expect(bare.ok && recordLog(bare.value)).toEqual([]);
  });

  it("tells a viewer's record's events in their turns", () => {
    const r = readRecordText(JSON.stringify(viewer));
    if (!r.ok) throw new Error(r.error.message);
    expect(recordLog(r.value).map((l) => [l.seq, l.turn, l.event.type])).toEqual([
      [2, 1, 'turnStarted'],
      [3, 1, 'cycleStarted'],
    ]);
  });

  it('refuses what is not a record, each refusal with its own words', () => {
    const codeOf = (text: string) => {
      const r = readRecordText(text);
      return r.ok ? null : r.error.code;
    };
    expect(codeOf('{not json')).toBe('record/invalid');
    expect(codeOf(JSON.stringify({ ...complete, format: 'pgn' }))).toBe('record/unknown_format');
    expect(codeOf(JSON.stringify({ ...complete, version: 9 }))).toBe('record/unknown_version');
    expect(codeOf(JSON.stringify({ ...complete, orders: [{ seq: 0 }] }))).toBe('record/invalid');
    expect(codeOf(JSON.stringify({ ...viewer, setup: { ...viewer.setup, seed: 's' } }))).toBe(
      'record/invalid',
    );
    const fallback = errorWords({ code: 'no/such' as never });
    for (const code of RECORD_ERROR_CODES) {
      const words = errorWords({ code, message: code, version: 9, seq: 4 });
      expect(words).not.toBe(fallback);
      expect(words).not.toContain(code);
    }
  });
});
