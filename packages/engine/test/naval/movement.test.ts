/**
 * 5.2 sea movement on a hand-made coast (two-coast area, white arrow, shoreline borders), 5.3 sea
 * areas counted for sinking, 8.1 interceptors, 8.4 capture.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, indexMap } from '../../src/index.ts';
import type { EngineContext } from '../../src/model/context.ts';
import type { GameStateCore } from '../../src/model/state.ts';
import { interceptors } from '../../src/naval/interception.ts';
import { seaAreasEntered, shipDestinations, shipPathProblem } from '../../src/naval/sea-graph.ts';
import { capturableShip, captureShip } from '../../src/naval/ship-capture.ts';
import { A, P, U } from '../helpers/scenario.ts';
import { NAVAL_MAP } from './fixture.ts';

const ctx: EngineContext = { map: indexMap(NAVAL_MAP), options: DEFAULT_OPTIONS };
const path = (...a: string[]) => a.map(A);

describe('5.2 sea movement', () => {
  it('through seas, along shorelines, by white arrows; never by a land-only border', () => {
    expect(shipPathProblem(ctx, A('west'), path('nord', 'east'))).toBeNull();
    expect(shipPathProblem(ctx, A('west'), path('east'))).toBeNull(); // a shoreline border
    expect(shipPathProblem(ctx, A('west'), path('nord', 'far', 'isle'))).toBeNull(); // white arrow
    expect(shipPathProblem(ctx, A('west'), path('inland'))).toBe('notAStep');
    expect(shipPathProblem(ctx, A('bay'), path('port'))).toBe('notAStep'); // land border, no shoreline
    expect(shipPathProblem(ctx, A('west'), path('nord'))).toBe('endsAtSea');
  });
  it('a two-coast area entered by one coast may not be left by the other the same turn', () => {
    expect(shipPathProblem(ctx, A('west'), path('nord', 'bay', 'sud', 'port'))).toBe('otherCoast');
    expect(shipPathProblem(ctx, A('bay'), path('sud', 'port'))).toBeNull(); // starting there: either coast
    expect(shipPathProblem(ctx, A('bay'), path('nord', 'east'))).toBeNull();
  });
  it('destinations within MA 4, with the fewest sea areas; never across the bay’s two coasts', () => {
    const d = shipDestinations(ctx, A('west'), 4);
    expect(d.map((x) => x.to)).toEqual(['bay', 'east', 'isle']);
    expect(d.find((x) => x.to === 'east')).toMatchObject({ path: ['east'], seas: 0 });
    expect(d.find((x) => x.to === 'isle')?.seas).toBe(2);
    expect(shipDestinations(ctx, A('bay'), 4).map((x) => x.to)).toEqual(['east', 'isle', 'port', 'west']);
  });
  it('5.3 / AMBIG-50: sea areas entered, re-entries counted unless switched off', () => {
    expect(seaAreasEntered(ctx, path('nord', 'east', 'nord', 'west'))).toBe(2);
    const once = {
      ...ctx,
      options: { ...DEFAULT_OPTIONS, cfg: { ...DEFAULT_OPTIONS.cfg, countReentries: false } },
    };
    expect(seaAreasEntered(once, path('nord', 'east', 'nord', 'west'))).toBe(1);
    expect(seaAreasEntered(ctx, path('east'))).toBe(0); // along the coast: no roll
  });
});

const board = (units: [string, string, string, string][]): GameStateCore =>
  ({
    units: Object.fromEntries(units.map(([id, owner, kind, area]) => [id, { id, owner, kind, area }])),
    nextUnit: 99,
  }) as unknown as GameStateCore;

describe('8.1 interceptors and 8.4 capture', () => {
  it('unfriendly ships in coastal areas touching the sea may intercept; not in a coastal area', () => {
    const g = board([
      ['s1', 'b', 'ship', 'east'],
      ['s2', 'b', 'ship', 'port'],
      ['s3', 'a', 'ship', 'bay'],
    ]);
    expect(interceptors(ctx, g, P('a'), A('nord'))).toEqual([{ area: 'east', ships: ['s1'], owner: 'b' }]);
    expect(interceptors(ctx, g, P('a'), A('nord'), [U('s1')])).toEqual([]); // once per moving ship
    expect(interceptors(ctx, g, P('a'), A('east'))).toEqual([]);
  });
  it('only a lone ship may be captured; it changes colour', () => {
    const g = board([
      ['s1', 'b', 'ship', 'east'],
      ['s2', 'b', 'ship', 'west'],
      ['i2', 'b', 'infantry', 'west'],
    ]);
    expect(capturableShip(g, A('east'))).toBe('s1');
    expect(capturableShip(g, A('west'))).toBeNull();
    const c = captureShip(g, U('s1'), P('a'));
    expect(c && Object.values(c.state.units).filter((u) => u.area === 'east')).toEqual([
      { id: 'u99', owner: 'a', kind: 'ship', area: 'east' },
    ]);
  });
});
