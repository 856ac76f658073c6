import { describe, expect, it } from 'vitest';
import { planStretches } from './rebuild-parallel.ts';

describe('planStretches', () => {
  it('cuts at the snapshots nearest to even lengths, the last stretch open to the log’s end', () => {
    const snapshots = [0, 100, 220, 290, 410, 500, 600];
    expect(planStretches(snapshots, 600, 3)).toEqual([
      { from: 0, to: 220 },
      { from: 220, to: 410 },
      { from: 410, to: null },
    ]);
  });

  it('never cuts at 0 or at the log’s last seq, nor twice at one snapshot', () => {
    expect(planStretches([0, 600], 600, 4)).toEqual([{ from: 0, to: null }]);
    expect(planStretches([0, 10, 600], 600, 4)).toEqual([
      { from: 0, to: 10 },
      { from: 10, to: null },
    ]);
  });

  it('takes the snapshots in any order and gives one stretch when asked for one', () => {
    expect(planStretches([300, 0, 150, 450], 600, 2)).toEqual([
      { from: 0, to: 300 },
      { from: 300, to: null },
    ]);
    expect(planStretches([0, 300], 600, 1)).toEqual([{ from: 0, to: null }]);
  });
});
