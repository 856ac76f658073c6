import { describe, expect, it } from 'vitest';
import { humanize, type IdWords, orderWords, unhandledOrders } from './fallback.ts';

const ids: IdWords = {
  unit: (id) => (id === 'u7' ? 'Galley in Mare' : null),
  player: (id) => (id === 'p2' ? 'Brenna' : null),
  area: (id) => id.toUpperCase(),
};

describe('the fallback for legal orders without a dedicated control', () => {
  it('keeps only the order types the panel does not know', () => {
    const legal = [
      { type: 'move', unit: 'u1', from: 'a', destinations: [] },
      { type: 'mercenaryOffer', to: 'p2', units: ['u7'], price: 4 },
      { type: 'endPhase' },
      { type: 'executePrisoner', leader: 'u9' },
    ];
    expect(unhandledOrders(legal).map((o) => o.type)).toEqual(['mercenaryOffer', 'executePrisoner']);
  });

  it('puts an unknown order in words, naming units, players and areas', () => {
    expect(humanize('shipCapture')).toBe('Ship capture');
    expect(orderWords({ type: 'mercenaryOffer', to: 'p2', units: ['u7'], price: 4, at: 'roma' }, ids)).toBe(
      'Mercenary offer — to: Brenna; units: Galley in Mare; price: 4; at: ROMA',
    );
    expect(orderWords({ type: 'ransomAccept', accept: true, terms: { amount: 3 } }, ids)).toBe(
      'Ransom accept — accept: yes; terms: amount 3',
    );
    expect(orderWords({ type: 'endMercenaries' }, ids)).toBe('End mercenaries');
  });
});
