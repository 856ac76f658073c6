import { describe, expect, it } from 'vitest';
import { planStretches } from './rebuild-parallel.ts';

/** Every 100th seq has a snapshot, as in a world that snapshots often. */
const every100 = Array.from({ length: 61 }, (_, i) => i * 100);

describe('planStretches', () => {
  it('cuts at snapshots into stretches that shorten towards the end, the last open to the log’s end', () => {
    // Two workers: each stretch about a quarter of what is left, none under 400 orders but the last.
    expect(planStretches(every100, 6000, 2)).toEqual([
      { from: 0, to: 1500 },
      { from: 1500, to: 2600 },
      { from: 2600, to: 3400 }, // 3450 wanted: of two snapshots as near, the earlier
      { from: 3400, to: 4000 },
      { from: 4000, to: 4500 },
      { from: 4500, to: 4900 },
      { from: 4900, to: 5300 },
      { from: 5300, to: null }, // 700 left: not cut into 400 and 300
    ]);
  });

  it('takes the snapshot nearest to the length it wants, in any order', () => {
    expect(planStretches([3000, 0, 1400, 4500], 6000, 2)).toEqual([
      { from: 0, to: 1400 },
      { from: 1400, to: 3000 },
      { from: 3000, to: 4500 },
      { from: 4500, to: null },
    ]);
  });

  it('never cuts at 0 or at the log’s last seq, and gives one stretch to one worker', () => {
    expect(planStretches([0, 6000], 6000, 2)).toEqual([{ from: 0, to: null }]);
    expect(planStretches(every100, 6000, 1)).toEqual([{ from: 0, to: null }]);
  });

  it('cuts a short log in shorter stretches, a quarter of a worker’s share at the least', () => {
    // 700 orders for two workers: no stretch under 87.5 orders but the last.
    expect(planStretches(every100, 700, 2)).toEqual([
      { from: 0, to: 200 },
      { from: 200, to: 300 },
      { from: 300, to: 400 },
      { from: 400, to: 500 },
      { from: 500, to: 600 },
      { from: 600, to: null },
    ]);
  });
});
