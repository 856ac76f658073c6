import type { GameView, LegalOrder } from '@bke/protocol';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { FIXTURE_VIEW, given } from '../../test/fixtures.ts';
import { NONE } from './choices.ts';
import OrdersPanel from './OrdersPanel.svelte';

const names = {
  areaName: (a: string) => a.toUpperCase(),
  unitLabel: (u: string) => `unit ${u}`,
  playerName: (p: string | null) => p ?? 'nobody',
};

function panel(legal: LegalOrder[], view: object = FIXTURE_VIEW, extra: Record<string, unknown> = {}) {
  const onorder = vi.fn();
  const onselect = vi.fn();
  render(OrdersPanel, {
    view: given<GameView>(view),
    legal,
    selection: NONE,
    ...names,
    onorder,
    onselect,
    ...extra,
  });
  return { onorder, onselect };
}

const economic = { ...FIXTURE_VIEW, step: { kind: 'economic', pending: ['p1'] } };

describe('OrdersPanel', () => {
  it('economic phase: pillage a city, then confirm with Ready', async () => {
    const { onorder } = panel([{ type: 'pillage', area: 'rhenus' }, { type: 'endPhase' }], economic);
    await fireEvent.click(screen.getByRole('button', { name: 'Pillage RHENUS' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'pillage', area: 'rhenus' });
    await fireEvent.click(screen.getByRole('button', { name: /^Ready/ }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'endPhase' });
  });

  it('kingdom economy: combines the column and purchases offered into one plan', async () => {
    const base = { disband: ['u9'], garrisonDisband: [], purchases: [], adminPercent: 0 };
    const { onorder } = panel(
      [
        { type: 'realmPlan', plan: base },
        { type: 'realmPlan', plan: { ...base, adminPercent: 20 } },
        { type: 'realmPlan', plan: { ...base, purchases: [{ kind: 'infantry', area: 'lutetia' }] } },
        { type: 'realmPlan', plan: { ...base, purchases: [{ kind: 'cavalry', area: 'rhenus' }] } },
        { type: 'endPhase' },
      ],
      economic,
    );
    expect(screen.getByTestId('realm-plan').textContent).toContain('unit u9 will be disbanded');
    await fireEvent.click(screen.getByLabelText('20% column'));
    await fireEvent.click(screen.getByLabelText('Cavalry in RHENUS'));
    await fireEvent.click(screen.getByTestId('send-plan'));
    expect(onorder).toHaveBeenLastCalledWith({
      type: 'realmPlan',
      plan: {
        disband: ['u9'],
        garrisonDisband: [],
        purchases: [{ kind: 'cavalry', area: 'rhenus' }],
        adminPercent: 20,
      },
    });
  });

  it('empire economy: each column says its chance of a Complete Collapse, as the engine foresees it', () => {
    const base = { disband: [], garrisonDisband: [], purchases: [], adminPercent: 0 };
    const collapse = (chance: number, percent: number, rebellion: number) =>
      ({
        kind: 'realmMayCollapse',
        section: '11.7.2',
        chance,
        percent,
        rebellion,
        capitalLost: false,
      }) as const;
    panel(
      [
        { type: 'realmPlan', plan: base, consequences: [collapse(7 / 216, 0, 7 / 36)] },
        {
          type: 'realmPlan',
          plan: { ...base, adminPercent: 10 },
          consequences: [collapse(24 / 1296, 10, 4 / 36)],
        },
        { type: 'realmPlan', plan: { ...base, adminPercent: 40 } },
        { type: 'endPhase' },
      ],
      economic,
    );
    expect(screen.getByTestId('column-collapse-0').textContent).toBe('collapse 7 in 216');
    expect(screen.getByTestId('column-collapse-10').textContent).toBe('collapse 1 in 54');
    // A column under which no roll can lead there says nothing.
    expect(screen.queryByTestId('column-collapse-40')).toBeNull();
    expect(screen.getByTestId('realm-plan').textContent).toMatch(
      /the chance that this turn's administration ends your empire in a\s+Complete Collapse/,
    );
  });

  it("kingdom economy: shows the server's price of the plan being composed, and the treasury left", async () => {
    const base = { disband: [], garrisonDisband: [], purchases: [], adminPercent: 0 };
    // The server's answer (realmPlanCost): the 30% column is more than this kingdom can pay.
    const price = vi.fn(async (plan: { adminPercent: number }) => ({
      cost: {
        tax: 10,
        other: 0,
        available: 12,
        upkeep: 4,
        purchases: 0,
        administration: plan.adminPercent / 5,
        adminPercent: plan.adminPercent,
        // As for a Hun realm: the roll is read one column to the left (AMBIG-26).
        ...(plan.adminPercent === 20 ? { effectivePercent: 10 } : {}),
        treasury: 8 - plan.adminPercent / 5,
        problem: plan.adminPercent === 30 ? 'cannotAfford' : null,
      },
      problem: null,
    }));
    panel(
      [
        { type: 'realmPlan', plan: base },
        { type: 'realmPlan', plan: { ...base, adminPercent: 20 } },
        { type: 'realmPlan', plan: { ...base, adminPercent: 30 } },
        { type: 'endPhase' },
      ],
      economic,
      { price },
    );
    await waitFor(() => expect(screen.getByTestId('treasury-left').textContent).toBe('8'));
    // Each column is priced on its own by the server and the price shown beside it.
    await waitFor(() => expect(screen.getByTestId('column-cost-20').textContent).toBe('costs 4'));
    // The price stays outside the choice's name (a label still reads "20% column").
    expect(screen.getByRole('radio', { name: '20% column' })).toBeTruthy();
    await fireEvent.click(screen.getByLabelText(/20% column/));
    await waitFor(() => expect(screen.getByTestId('treasury-left').textContent).toBe('4'));
    expect(screen.getByTestId('plan-cost').textContent).toContain('Administration (20% column, read as 10%)');
    expect(price).toHaveBeenLastCalledWith({ ...base, adminPercent: 20 });
    await fireEvent.click(screen.getByLabelText(/30% column/));
    await waitFor(() =>
      expect(screen.getByTestId('plan-problem').textContent).toContain('more than the money'),
    );
    expect(screen.getByTestId('treasury-left').textContent).toBe('2');
    expect((screen.getByTestId('send-plan') as HTMLButtonElement).disabled).toBe(true);
  });

  it('combat: shows the odds of each choice before the attack is confirmed', async () => {
    const combat = {
      ...FIXTURE_VIEW,
      step: { kind: 'playerTurn', player: 'p1', phase: 'combat', moved: [] },
    };
    const { onorder } = panel(
      [
        {
          type: 'combatAttack',
          target: 'rhenus',
          defender: 'p2',
          defenders: ['u4'],
          neutral: null,
          eligible: [
            { unit: 'u1', from: 'belgica', halved: false },
            { unit: 'u3', from: 'belgica', halved: true },
          ],
          choices: [
            { attackers: ['u1', 'u3'], odds: '2-1', shift: 0, outcomes: [] },
            { attackers: ['u3'], odds: '1-1', shift: 0, outcomes: [] },
          ],
        },
        { type: 'combatDone' },
      ],
      combat,
    );
    expect(screen.queryByTestId('attack-plan')).toBeNull();
    await fireEvent.click(screen.getByTestId('attack-rhenus'));
    const odds = screen.getAllByTestId('odds').map((o) => o.textContent);
    expect(odds).toEqual(['odds 2-1', 'odds 1-1']);
    expect(screen.getByTestId('attack-plan').textContent).toContain('Halved');
    await fireEvent.click(screen.getAllByRole('radio')[1] as HTMLElement);
    expect(screen.getByTestId('confirm-attack').textContent).toContain('1-1');
    await fireEvent.click(screen.getByTestId('confirm-attack'));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'combatAttack', target: 'rhenus', attackers: ['u3'] });
  });

  it('tells a spectator and a waiting player that there is nothing to decide', () => {
    panel([], { ...FIXTURE_VIEW, viewer: null });
    expect(screen.getByTestId('no-orders').textContent).toContain('watching');
  });

  it('retreat choices list the paths; advances offer to stay put', async () => {
    const { onorder } = panel([
      { type: 'combatRetreat', unit: 'u1', from: 'belgica', paths: [['lutetia']], eliminated: false },
    ]);
    await fireEvent.click(screen.getByRole('button', { name: '→ LUTETIA' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'combatRetreat', unit: 'u1', path: ['lutetia'] });
  });

  it('offers any legal order it has no control for, in words, and sends it as listed', async () => {
    // An order type this client was built without (the server may list new ones at any time).
    const unknown = { type: 'ransomOffer', leader: 'u1', to: 'p2', amount: 5 } as unknown as LegalOrder;
    const { onorder } = panel([unknown, { type: 'endPhase' }]);
    const button = screen.getByRole('button', { name: /^Ransom offer/ });
    expect(button.textContent).toContain('to: p2');
    await fireEvent.click(button);
    expect(onorder).toHaveBeenLastCalledWith({ type: 'ransomOffer', leader: 'u1', to: 'p2', amount: 5 });
  });

  it('standing orders: interception toggle and tribute; they alone leave nothing to decide now', async () => {
    const { onorder } = panel([
      { type: 'realmInterception', intercept: false },
      { type: 'realmTribute', to: 'p2', amount: 1 },
      { type: 'realmTribute', to: 'p2', amount: 2 },
    ]);
    expect(screen.getByTestId('no-orders')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Stop intercepting' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'realmInterception', intercept: false });
    await fireEvent.input(screen.getByLabelText('Tribute amount'), { target: { value: '2' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Pay 2 in tribute' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'realmTribute', to: 'p2', amount: 2 });
  });

  it('auction: a sealed bid per lot, at least the smallest amount offered', async () => {
    const { onorder } = panel(
      [
        { type: 'realmBid', auctioneer: 'p2', kind: 'infantry', amount: 4 },
        { type: 'realmBid', auctioneer: 'p2', kind: 'infantry', amount: 7 },
        { type: 'endPhase' },
      ],
      economic,
    );
    const input = screen.getByRole('spinbutton', { name: /Bid for/ }) as HTMLInputElement;
    expect(input.value).toBe('4');
    await fireEvent.input(input, { target: { value: '6' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Bid' }));
    expect(onorder).toHaveBeenLastCalledWith({
      type: 'realmBid',
      auctioneer: 'p2',
      kind: 'infantry',
      amount: 6,
    });
  });

  it('entry: two areas can be picked from the keyboard as well as on the map', async () => {
    const { onorder } = panel([{ type: 'placeEntryTribes', areas: ['lutetia', 'belgica', 'rhenus'] }]);
    await fireEvent.click(screen.getByLabelText('LUTETIA'));
    await fireEvent.click(screen.getByLabelText('RHENUS'));
    expect((screen.getByLabelText('BELGICA') as HTMLInputElement).disabled).toBe(true);
    await fireEvent.click(screen.getByRole('button', { name: 'Enter in LUTETIA and RHENUS' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'placeEntryTribes', areas: ['lutetia', 'rhenus'] });
  });

  it('Persian start: one army is chosen, its units placed among the offered areas, the leader with them (13.2.3)', async () => {
    const entry = { ...FIXTURE_VIEW, step: { kind: 'entry', queue: ['p1'] } };
    const areas = ['lutetia', 'belgica', 'rhenus'];
    const { onorder } = panel(
      [
        {
          type: 'persianArmy',
          units: [
            { kind: 'cavalry', area: 'lutetia' },
            { kind: 'infantry', area: 'belgica' },
            { kind: 'bow', area: 'lutetia' },
          ],
          leader: 'lutetia',
          areas,
        },
        {
          type: 'persianArmy',
          units: [
            { kind: 'cavalry', area: 'lutetia' },
            { kind: 'cavalry', area: 'belgica' },
          ],
          leader: 'lutetia',
          areas,
        },
      ],
      entry,
    );
    expect(screen.getByText(/Choose the army your Persian kingdom starts with/)).toBeTruthy();
    expect(screen.getByTestId('persian-army').textContent).toContain('Cavalry 4-4, Infantry 4-2, Bow 2-3');
    // The suggested army as offered, unchanged.
    await fireEvent.click(screen.getByTestId('send-army'));
    expect(onorder).toHaveBeenLastCalledWith({
      type: 'persianArmy',
      units: [
        { kind: 'cavalry', area: 'lutetia' },
        { kind: 'infantry', area: 'belgica' },
        { kind: 'bow', area: 'lutetia' },
      ],
      leader: 'lutetia',
    });
    // Two horsemen, the second moved to Rhenus and the leader with it.
    await fireEvent.click(screen.getByLabelText('Cavalry 4-4, Cavalry 4-4'));
    await fireEvent.change(screen.getByLabelText('Cavalry 2 stands in'), { target: { value: 'rhenus' } });
    await fireEvent.change(screen.getByLabelText('Leader stands in'), { target: { value: 'rhenus' } });
    await fireEvent.click(screen.getByTestId('send-army'));
    expect(onorder).toHaveBeenLastCalledWith({
      type: 'persianArmy',
      units: [
        { kind: 'cavalry', area: 'lutetia' },
        { kind: 'cavalry', area: 'rhenus' },
      ],
      leader: 'rhenus',
    });
  });

  it('ships: a landing is named as such; stops pick units up and put cargo ashore (AMBIG-15)', async () => {
    const movement = {
      ...FIXTURE_VIEW,
      step: { kind: 'playerTurn', player: 'p1', phase: 'movement', moved: [] },
    };
    const legal = [
      {
        type: 'shipMove',
        ship: 'u1',
        path: ['belgica', 'rhenus'],
        cargo: ['u3'],
        landing: true,
        pickups: [{ at: 'belgica', units: ['u9'] }],
      },
      { type: 'shipMove', ship: 'u1', path: ['belgica'], cargo: ['u3'] },
      { type: 'endPhase' },
    ] as LegalOrder[];
    const onorder = vi.fn();
    render(OrdersPanel, {
      view: given<GameView>(movement),
      legal,
      selection: { kind: 'unit', unit: 'u1', from: 'lutetia', hover: null, cargo: ['u3'] },
      ...names,
      onorder,
      onselect: vi.fn(),
      isLand: (a: string) => a !== 'mare',
    });
    expect(screen.getByTestId('voyage-rhenus').textContent).toContain('Land in RHENUS');
    await fireEvent.change(screen.getByLabelText('Destination of the voyage'), {
      target: { value: 'rhenus' },
    });
    await fireEvent.click(screen.getByLabelText(/Pick up unit u9 at BELGICA/));
    await fireEvent.change(screen.getByLabelText('Where unit u3 goes ashore'), {
      target: { value: 'belgica' },
    });
    await fireEvent.click(screen.getByRole('button', { name: /Sail to RHENUS with 1 stop/ }));
    expect(onorder).toHaveBeenLastCalledWith({
      type: 'shipMove',
      ship: 'u1',
      path: ['belgica', 'rhenus'],
      cargo: ['u3'],
      stops: [{ at: 'belgica', load: ['u9'], unload: ['u3'] }],
    });
  });

  it('combat: capturing a beaten ship is a yes-or-no decision (8.4)', async () => {
    const { onorder } = panel([
      { type: 'combatCapture', capture: false, ship: 'u4' },
      { type: 'combatCapture', capture: true, ship: 'u4' },
    ]);
    await fireEvent.click(screen.getByTestId('capture-yes'));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'combatCapture', capture: true });
    expect(screen.queryByTestId('other-orders')).toBeNull();
  });

  it('mercenaries and prisoners: offers, acceptance, ransom demands and execution are buttons (13.4, 13.6)', async () => {
    const listed = [
      { type: 'realmLeaseOffer', hirer: 'p2', units: ['u1', 'u3'], price: 3 },
      { type: 'realmLeaseAccept', owner: 'p2' },
      { type: 'realmRansomOffer', leader: 'u9', amount: 5 },
      { type: 'realmRansomOffer', leader: 'u9', amount: 10 },
      { type: 'realmExecute', leader: 'u9' },
    ] as unknown as LegalOrder[];
    const { onorder } = panel(listed);
    expect(screen.getByTestId('no-orders')).toBeTruthy();
    expect(screen.queryByTestId('other-orders')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Offer 2 units to p2 for 3' }));
    expect(onorder).toHaveBeenLastCalledWith({
      type: 'realmLeaseOffer',
      hirer: 'p2',
      units: ['u1', 'u3'],
      price: 3,
    });
    await fireEvent.click(screen.getByTestId('lease-accept-p2'));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'realmLeaseAccept', owner: 'p2' });
    await fireEvent.click(screen.getByRole('button', { name: '10' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'realmRansomOffer', leader: 'u9', amount: 10 });
    await fireEvent.click(screen.getByTestId('execute-u9'));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'realmExecute', leader: 'u9' });
  });

  it('lease offers name the units once, then one button per price; ticking units picks the offer (13.4)', async () => {
    const listed = [
      { type: 'realmLeaseOffer', hirer: 'p2', units: ['u1', 'u3'], price: 0 },
      { type: 'realmLeaseOffer', hirer: 'p2', units: ['u1', 'u3'], price: 5 },
      { type: 'realmLeaseOffer', hirer: 'p2', units: ['u1'], price: 2 },
    ] as unknown as LegalOrder[];
    const { onorder } = panel(listed);
    // Each unit's label appears once, not once per price.
    expect(screen.getByTestId('diplomacy').textContent?.match(/unit u1/g)).toHaveLength(1);
    // All units ticked at first: the prices of the offer of both.
    expect(screen.getByTestId('lease-offer-p2-2-0').textContent).toBe('0');
    expect(screen.getByTestId('lease-offer-p2-2-5')).toBeTruthy();
    expect(screen.queryByTestId('lease-offer-p2-1-2')).toBeNull();
    await fireEvent.click(screen.getByRole('checkbox', { name: 'unit u3' }));
    expect(screen.queryByTestId('lease-offer-p2-2-5')).toBeNull();
    await fireEvent.click(screen.getByTestId('lease-offer-p2-1-2'));
    expect(onorder).toHaveBeenLastCalledWith({
      type: 'realmLeaseOffer',
      hirer: 'p2',
      units: ['u1'],
      price: 2,
    });
    // No offer holds u3 alone: no price button, a word why.
    await fireEvent.click(screen.getByRole('checkbox', { name: 'unit u1' }));
    await fireEvent.click(screen.getByRole('checkbox', { name: 'unit u3' }));
    expect(screen.queryByRole('button', { name: /^Offer / })).toBeNull();
    expect(screen.getByTestId('diplomacy').textContent).toContain('No offer lists exactly the ticked units.');
  });

  it('one set of units offered: a plain list, no checkboxes (13.4)', () => {
    panel([
      { type: 'realmLeaseOffer', hirer: 'p2', units: ['u1'], price: 0 },
      { type: 'realmLeaseOffer', hirer: 'p2', units: ['u1'], price: 10 },
    ] as unknown as LegalOrder[]);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByTestId('lease-units-p2').textContent).toContain('unit u1');
    expect(screen.getByRole('button', { name: 'Offer 1 unit to p2 for 10' })).toBeTruthy();
  });

  it("a running lease is told on both parties' panels from the view: units, whom they serve, price, its end (13.4)", () => {
    const lease = { owner: 'p2', hirer: 'p1', units: ['u1', 'u3'], price: 5, status: 'active' };
    // The same pair twice (a public patch ahead of the private view): told once, no crash.
    const asHirer = {
      ...FIXTURE_VIEW,
      realm: { leases: [lease, { ...lease, status: 'accepted' }] },
    };
    panel([{ type: 'realmLeaseEnd', with: 'p2' }] as unknown as LegalOrder[], asHirer);
    expect(screen.getByTestId('lease-active-p2').textContent).toContain(
      "p2's units serve you as mercenaries, for 5: unit u1, unit u3.",
    );
    expect(screen.queryByTestId('lease-accepted-p2')).toBeNull();
    expect(screen.getByTestId('lease-end-p2')).toBeTruthy();
    cleanup();
    // The owner, with nothing to decide: the panel still says it; and an ending lease says when.
    const asOwner = {
      ...FIXTURE_VIEW,
      viewer: 'p2',
      realm: { leases: [{ ...lease, status: 'ending' }] },
    };
    panel([], asOwner);
    const told = screen.getByTestId('lease-ending-p1').textContent ?? '';
    expect(told).toContain('Your units serve p1 as mercenaries, for 5: unit u1, unit u3.');
    expect(told).toContain('Ending: the units go home at the start of next turn.');
    cleanup();
    // A third player sees no agreement of its own.
    panel([], { ...asOwner, viewer: 'p3' });
    expect(screen.queryByTestId('diplomacy')).toBeNull();
  });

  it('tribute paid to the viewer this turn is told on its panel, from the events (13.7)', () => {
    const view = { ...FIXTURE_VIEW, turn: 4 };
    const paid = (turn: number, to: string, amount: number) => ({
      seq: turn * 10 + amount,
      turn,
      event: { type: 'tributePaid', from: 'p2', to, amount },
    });
    panel([], view, { log: [paid(3, 'p1', 1), paid(4, 'p1', 3), paid(4, 'p3', 2)] });
    const told = screen.getAllByTestId('tribute-received');
    expect(told.map((t) => t.textContent)).toEqual(['p2 paid you 3 in tribute.']);
  });

  it('ending a mere offer reads as declining it (hirer) or withdrawing it (owner) (13.4)', () => {
    const lease = { owner: 'p2', hirer: 'p1', units: ['u1'], price: 2, status: 'offered' };
    const end = [{ type: 'realmLeaseEnd', with: 'p2' }] as unknown as LegalOrder[];
    panel(end, { ...FIXTURE_VIEW, realm: { leases: [lease] } });
    expect(screen.getByTestId('lease-end-p2').textContent?.trim()).toBe('Decline the offer of p2');
    cleanup();
    const asOwner = { ...FIXTURE_VIEW, viewer: 'p2', realm: { leases: [lease] } };
    panel([{ type: 'realmLeaseEnd', with: 'p1' }] as unknown as LegalOrder[], asOwner);
    expect(screen.getByTestId('lease-end-p1').textContent?.trim()).toBe('Withdraw the offer to p1');
    cleanup();
    panel(end, { ...FIXTURE_VIEW, realm: { leases: [{ ...lease, status: 'active' }] } });
    expect(screen.getByTestId('lease-end-p2').textContent?.trim()).toBe('End the agreement with p2');
  });

  it('rebellion: the heading says what the choice is for, from the pending choice in the view (11.7.2)', async () => {
    const view = {
      ...FIXTURE_VIEW,
      realm: {
        pending: {
          kind: 'units',
          chooser: 'p1',
          rebel: 'p1',
          reason: 'armyMutiny',
          count: 2,
          candidates: ['u1', 'u3'],
          upTo: false,
        },
      },
    };
    const { onorder } = panel([{ type: 'realmUnits', units: ['u1', 'u3'] }], view);
    expect(
      screen.getByRole('heading', { name: 'Rebellion — army mutiny: choose 2 units to remove' }),
    ).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'unit u1, unit u3' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'realmUnits', units: ['u1', 'u3'] });
  });

  it('prisoners are named by whose leader they are, with the ransom asked (13.6)', async () => {
    const view = {
      ...FIXTURE_VIEW,
      realm: { prisoners: [{ leader: 'u50', owner: 'p1', captor: 'p2', holder: 'u4', ransom: 6 }] },
    };
    const { onorder } = panel(
      [{ type: 'realmRansomAccept', leader: 'u50' }] as unknown as LegalOrder[],
      view,
    );
    await fireEvent.click(screen.getByRole('button', { name: "Pay the ransom of 6 for p1's leader" }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'realmRansomAccept', leader: 'u50' });
  });

  it('founding a kingdom with no unit left for the leader sends leaderWith null', async () => {
    const { onorder } = panel([{ type: 'foundKingdom', leaderWith: [], capital: ['rhenus'] }]);
    await fireEvent.click(screen.getByRole('button', { name: 'Found the kingdom' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'foundKingdom', leaderWith: null, capital: 'rhenus' });
  });

  it('a revolting province is named from the map, not by its id', async () => {
    const onorder = vi.fn();
    render(OrdersPanel, {
      view: FIXTURE_VIEW,
      legal: [{ type: 'realmProvince', province: 'gallia' }],
      selection: NONE,
      ...names,
      onorder,
      onselect: vi.fn(),
      provinceName: (id: string) => (id === 'gallia' ? 'Gallia' : id),
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Gallia' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'realmProvince', province: 'gallia' });
  });

  it('ships: companions from the same area sail with the selected ship, each with its cargo (8.1)', async () => {
    const movement = {
      ...FIXTURE_VIEW,
      step: { kind: 'playerTurn', player: 'p1', phase: 'movement', moved: [] },
    };
    const legal = [
      { type: 'shipMove', ship: 'u1', path: ['rhenus'], cargo: [], companions: ['u2'] },
      { type: 'shipMove', ship: 'u2', path: ['rhenus'], cargo: [] },
      { type: 'shipMove', ship: 'u2', path: ['rhenus'], cargo: ['u3'] },
    ] as LegalOrder[];
    const onorder = vi.fn();
    render(OrdersPanel, {
      view: given<GameView>(movement),
      legal,
      selection: { kind: 'unit', unit: 'u1', from: 'belgica', hover: null, cargo: [] },
      ...names,
      onorder,
      onselect: vi.fn(),
    });
    await fireEvent.click(screen.getByRole('checkbox', { name: 'unit u2' }));
    await fireEvent.click(screen.getByRole('radio', { name: 'carrying unit u3' }));
    await fireEvent.click(screen.getByTestId('voyage-rhenus'));
    expect(onorder).toHaveBeenLastCalledWith({
      type: 'shipMove',
      ship: 'u1',
      path: ['rhenus'],
      cargo: [],
      with: [{ ship: 'u2', cargo: ['u3'] }],
    });
  });

  it('upkeep shortfall: another set of units to disband can be chosen, starting from the suggested one (10.4)', async () => {
    const base = { disband: ['u1'], garrisonDisband: [], purchases: [], adminPercent: 0 };
    const { onorder } = panel([{ type: 'realmPlan', plan: base }, { type: 'endPhase' }], economic);
    expect(screen.getByTestId('realm-plan').textContent).toContain('unit u1 will be disbanded');
    await fireEvent.click(screen.getByText('Choose which units are disbanded'));
    await fireEvent.click(screen.getByRole('checkbox', { name: 'unit u1' }));
    await fireEvent.click(screen.getByRole('checkbox', { name: 'unit u3' }));
    expect(screen.getByTestId('realm-plan').textContent).toContain('unit u3 will be disbanded');
    await fireEvent.click(screen.getByTestId('send-plan'));
    expect(onorder).toHaveBeenLastCalledWith({
      type: 'realmPlan',
      plan: { disband: ['u3'], garrisonDisband: [], purchases: [], adminPercent: 0 },
    });
  });

  it('tribal unrest (9.3.5): the list shows the picks made on the map, and sends them when enough are picked', async () => {
    const unrest: LegalOrder[] = [{ type: 'removeUnits', count: 2, candidates: ['u1', 'u2', 'u3'] }];
    const { onselect } = panel(unrest);
    await fireEvent.click(screen.getByTestId('unrest-u2'));
    expect(onselect).toHaveBeenLastCalledWith({ kind: 'remove', units: ['u2'] });
    expect(screen.getByTestId('unrest-confirm')).toHaveProperty('disabled', true);
    cleanup();
    const picked = panel(unrest, FIXTURE_VIEW, { selection: { kind: 'remove', units: ['u1', 'u3'] } });
    expect(screen.getByTestId('unrest-u1')).toHaveProperty('checked', true);
    expect(screen.getByTestId('unrest-u2')).toHaveProperty('checked', false);
    await fireEvent.click(screen.getByTestId('unrest-confirm'));
    expect(picked.onorder).toHaveBeenLastCalledWith({ type: 'removeUnits', units: ['u1', 'u3'] });
  });

  it('abandoning (14.3) says, before it is declared, that it ends the cycle for certain', async () => {
    const { onorder } = panel([{ type: 'declareAbandon', abandon: true }, { type: 'endPhase' }], economic);
    expect(screen.getByText(/ends your cycle for certain \(rule 14\.3\)/).textContent).toContain(
      "the cycle's victory points are kept",
    );
    await fireEvent.click(screen.getByRole('button', { name: 'Abandon at the next administration' }));
    expect(onorder).toHaveBeenLastCalledWith({ type: 'declareAbandon', abandon: true });
  });
});
