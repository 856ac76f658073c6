import type { Consequence, GameView, LegalOrder } from '@bke/protocol';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIXTURE_VIEW } from '../../test/fixtures.ts';
import { consequenceWords, foreseenOf } from './consequences.ts';
import ForeseenCost from './ForeseenCost.svelte';
import OrdersPanel from './OrdersPanel.svelte';

const names = { area: (a: string) => a.toUpperCase(), unit: (u: string) => `unit ${u}` };
const movement: GameView = {
  ...FIXTURE_VIEW,
  step: { kind: 'playerTurn', player: 'p1', phase: 'movement', moved: [], split: [] },
} as GameView;

const lost: Consequence = {
  kind: 'stackingLoss',
  section: '9.2',
  area: 'rhenus',
  lose: 1,
  automatic: true,
  avoidable: false,
};
const cut: Consequence = {
  kind: 'hordeCutApart',
  section: '9.3.4',
  groups: [['rhenus'], ['lutetia']],
  tribesAtRisk: 1,
  mendable: false,
};
const collapse: Consequence = {
  kind: 'realmMayCollapse',
  section: '11.7.2',
  chance: 7 / 216,
  percent: 0,
  rebellion: 7 / 36,
  capitalLost: false,
};
const legal: LegalOrder[] = [
  {
    type: 'move',
    unit: 'u1',
    from: 'belgica',
    destinations: [
      { to: 'rhenus', path: ['rhenus'], consequences: [lost], onlyLoses: true },
      { to: 'lutetia', path: ['lutetia'], consequences: [cut] },
      { to: 'mare', path: ['mare'] },
    ],
  },
  { type: 'endPhase', consequences: [cut] },
];

afterEach(cleanup);

describe('foreseen consequences', () => {
  it('finds the cost of the order about to be sent, from the legal list only', () => {
    expect(foreseenOf(legal, { type: 'move', unit: 'u1', path: ['rhenus'] })).toEqual({
      to: 'rhenus',
      path: ['rhenus'],
      consequences: [lost],
      onlyLoses: true,
    });
    expect(foreseenOf(legal, { type: 'move', unit: 'u1', path: ['mare'] })).toBeNull();
    expect(foreseenOf(legal, { type: 'endPhase' })?.consequences).toEqual([cut]);
    expect(foreseenOf([{ type: 'endPhase' }], { type: 'endPhase' })).toBeNull();
  });

  it('every kind of consequence has words that cite its rule section', () => {
    const all: Consequence[] = [
      lost,
      { kind: 'stackingLoss', section: '6', area: 'rhenus', lose: 1, automatic: false, avoidable: true },
      cut,
      { kind: 'supportLost', section: '11.5', units: ['u3'] },
      { kind: 'mayBeLost', section: '13.1.1', unit: 'u1', chance: 0.5 },
      { kind: 'upkeepShortfall', section: '10.4', upkeep: 11, available: 10, disband: ['u2'] },
      { kind: 'hordeMayEnd', section: '14.3', chance: 7 / 36, by: [{ result: 'EX', chance: 7 / 36 }] },
      { kind: 'hordeMayEndAtSea', section: '14.3', unit: 'u1', chance: 0.5 },
      collapse,
    ];
    for (const c of all) expect(consequenceWords(c, names)).toContain(`(rule ${c.section})`);
    expect(consequenceWords(all[1] as Consequence, names)).toBe(
      'RHENUS would hold more units than the stacking limits allow: you would have to remove 1 unit at the end of movement, unless a unit there moves away first (rule 6).',
    );
    expect(consequenceWords(cut, names)).toBe(
      'Your tribes would be cut into 2 groups. In the administration phase you keep one group and lose the 1 tribe outside it (rule 9.3.4).',
    );
  });

  it('the orders panel marks costly destinations and a move that only loses, and warns on Done', async () => {
    render(OrdersPanel, {
      view: movement,
      legal,
      selection: { kind: 'unit', unit: 'u1', from: 'belgica', hover: null },
      areaName: names.area,
      unitLabel: names.unit,
      playerName: (p: string | null) => p ?? 'nobody',
      onorder: vi.fn(),
      onselect: vi.fn(),
    });
    expect(screen.getByTestId('dest-rhenus').textContent).toContain('only loses a unit');
    expect(screen.getByTestId('dest-lutetia').textContent).toContain('costs units');
    expect(screen.getByTestId('dest-mare').textContent).toBe('→ MARE');
    expect(screen.getByTestId('foreseen-cost').textContent).toContain('cut into 2 groups');
  });

  it('as a confirmation, the order goes only when the player accepts the cost', async () => {
    const onconfirm = vi.fn();
    const oncancel = vi.fn();
    render(ForeseenCost, {
      foreseen: { consequences: [lost], onlyLoses: true },
      names,
      what: 'unit u1 to RHENUS',
      onconfirm,
      oncancel,
    });
    const box = screen.getByRole('alertdialog');
    expect(box.textContent).toContain('Before you commit — unit u1 to RHENUS');
    expect(screen.getByTestId('only-loses').textContent).toContain('only loses a unit');
    await fireEvent.click(screen.getByTestId('confirm-cancel'));
    expect(oncancel).toHaveBeenCalledOnce();
    expect(onconfirm).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByTestId('confirm-anyway'));
    expect(onconfirm).toHaveBeenCalledOnce();
  });

  it("the crossing of the horde's last tribe says, before it is sent, that the horde may end and how likely", () => {
    render(ForeseenCost, {
      foreseen: {
        consequences: [
          { kind: 'mayBeLost', section: '13.1.1', unit: 'u1', chance: 0.5 },
          { kind: 'hordeMayEndAtSea', section: '14.3', unit: 'u1', chance: 0.5 },
        ],
      },
      names,
      what: 'unit u1 across MARE',
      onconfirm: vi.fn(),
      oncancel: vi.fn(),
    });
    const box = screen.getByRole('alertdialog');
    expect(box.textContent).toContain(
      'This sea crossing can end your horde: 1 in 2 (the die loses the tribe on 4–6). It is the last unit you have, and a horde with no units has finished its cycle; its victory points are kept and you pick a new start (rule 14.3).',
    );
  });

  it("an empire's Ready says, before its economic decisions are confirmed, how likely a Complete Collapse is", () => {
    const economic = {
      ...FIXTURE_VIEW,
      step: { kind: 'economic', pending: ['p1'], pillage: {} },
    } as GameView;
    render(OrdersPanel, {
      view: economic,
      legal: [{ type: 'endPhase', consequences: [collapse] }],
      selection: { kind: 'none' },
      areaName: names.area,
      unitLabel: names.unit,
      playerName: (p: string | null) => p ?? 'nobody',
      onorder: vi.fn(),
      onselect: vi.fn(),
    });
    expect(screen.getByTestId('foreseen-cost').textContent).toContain(
      'Your administration on the 0% column can end your empire in a Complete Collapse: 7 in 216 (about 3.2 %). After this plan the administration roll calls for the Rebellion Table with a chance of 7 in 36, and a 7 there removes all your units and markers and puts neutral garrisons in all your cities; the victory points are kept and you may start a new cycle next turn (rule 11.7.2).',
    );
    expect(
      consequenceWords({ ...collapse, rebellion: 0, capitalLost: true, chance: 6 / 36 }, names),
    ).toContain(
      'can end your empire in a Complete Collapse: 1 in 6 (about 16.7 %). After this plan losing your capital this turn calls for a roll on the Rebellion Table',
    );
  });
});
