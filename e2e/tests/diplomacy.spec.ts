/**
 * An optional rule played between two players in the browser — a mercenary lease (13.4).
 * ONE serialized driver (e2e/duel.ts) plays both accounts of a world with mercenaries and tribute
 * on, order by order for whichever player the engine waits for, in a world whose seed it chose
 * offline so that one player becomes a kingdom while the other is a barbarian with combat units.
 * Then two browser contexts take over: the barbarian offers its units for a price, the kingdom
 * accepts; the driver plays on to the next turn start, when the lease comes into force: the
 * hirer selects a leased unit, the area card names the mercenaries, the barbarian's treasury rose
 * by the price; then the hirer ends the agreement. Screenshots in e2e/artifacts/diplomacy-*.png.
 */
import { expect, type Page, test } from '@playwright/test';
import { browserCookie, type DriveAccount, duel } from '../goals.ts';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/diplomacy-${name}.png` });

interface Met {
  owner: string;
  hirer: string;
  units: string[];
  price: number;
}
interface ViewPlayer {
  id: string;
  name: string;
  money: number;
  cycle: { vp: number };
}
interface Purse {
  money: number;
  vp: number;
  turn: number;
}
interface Meeting {
  accounts: DriveAccount[];
  worldId: string;
  seed: string;
  turn: number;
  met: Met;
  owner: ViewPlayer;
}
interface InForce {
  turn: number;
  found: { unit: string; area: string; areaName: string; turn: number; owner: ViewPlayer };
  /** The barbarian's purse in the last view before the lease took effect, and the first after. */
  before: Purse;
  atStart: Purse;
}

/** Clicks a button that sends an order and waits for the world's next version. */
async function decide(page: Page, button: ReturnType<Page['getByTestId']>) {
  const before = await page.getByTestId('banner').getAttribute('data-version');
  await button.click();
  await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', before ?? '');
}

test('a barbarian hires out its units to a kingdom, the lease comes into force, and ends', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL as string;
  const meeting = await duel<Meeting>({
    stage: 'meet',
    base,
    names: [`aetius_${stamp}`, `gaiseric_${stamp}`],
    seedBase: 'e2e-duel',
  });
  const { met, accounts, worldId } = meeting;
  // A crash of a component (a duplicate key in a list of choices did once) leaves the page blank.
  const pageErrors: string[] = [];
  const accountOf = (player: string) => accounts[Number(player.slice(1)) - 1] as DriveAccount;
  const open = async (player: string) => {
    const ctx = await browser.newContext();
    await ctx.addCookies([browserCookie(accountOf(player), base)]);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`/#/world/${worldId}`);
    await expect(page.getByTestId('account-name')).toHaveText(accountOf(player).name);
    await expect(page.getByTestId('map')).toBeVisible();
    return { ctx, page };
  };
  const barbarian = await open(met.owner);
  const kingdom = await open(met.hirer);
  const hirerName = accountOf(met.hirer).name;
  const ownerName = accountOf(met.owner).name;

  // 13.4: the barbarian offers all its combat units for a price, whoever the world waits for.
  const diplomacy = barbarian.page.getByTestId('diplomacy');
  await expect(diplomacy).toContainText(`Hire out units to ${hirerName} as mercenaries`);
  await shot(barbarian.page, 'offer');
  await diplomacy.screenshot({ path: 'artifacts/diplomacy-offer-panel.png' });
  await decide(
    barbarian.page,
    barbarian.page.getByTestId(`lease-offer-${met.hirer}-${met.units.length}-${met.price}`),
  );

  // The kingdom sees the offer and accepts it; it takes effect at the next turn start.
  const accept = kingdom.page.getByTestId(`lease-accept-${met.owner}`);
  await expect(kingdom.page.getByTestId('diplomacy')).toContainText(`Mercenaries offered by ${ownerName}`);
  // What is offered, before accepting: the units and the price.
  await expect(kingdom.page.getByTestId(`lease-offered-${met.owner}`)).toHaveText(
    new RegExp(`^(.+, ){${met.units.length - 1}}[^,]+, for ${met.price}\\.$`),
  );
  await shot(kingdom.page, 'offered');
  await decide(kingdom.page, accept);
  await expect(accept).toBeHidden();
  await kingdom.page.getByRole('tab', { name: 'History' }).click();
  await expect(kingdom.page.getByTestId('event-log')).toContainText(
    `${hirerName} accepted ${ownerName}'s mercenaries for ${met.price}.`,
  );
  await shot(kingdom.page, 'accepted');

  // The driver plays both players on, to the hirer's movement with the lease in force.
  const inForce = await duel<InForce>({
    stage: 'lease',
    base,
    accounts,
    worldId,
    seed: meeting.seed,
    met,
  });
  const { unit, area, turn, owner } = inForce.found;
  expect(turn).toBeGreaterThan(meeting.turn);
  // The price was paid at the turn start: money and victory points of the barbarian (13.4, 14.3.1).
  const { before, atStart } = inForce;
  expect(atStart.turn).toBe(before.turn + 1);
  expect(atStart.money - before.money).toBe(met.price);
  expect(atStart.vp - before.vp).toBe(met.price);
  // The barbarian's page shows its hoard and VP as they are now.
  await expect(barbarian.page.getByTestId('turn')).toHaveText(String(turn));
  await expect(barbarian.page.getByText(/ in the hoard, /)).toContainText(
    `${owner.money} in the hoard, ${owner.cycle.vp} VP this cycle`,
  );
  await shot(barbarian.page, 'paid');
  await barbarian.page.getByRole('tab', { name: 'Scores' }).click();
  await shot(barbarian.page, 'scores');

  await expect(kingdom.page.getByTestId('turn')).toHaveText(String(turn));
  await expect(kingdom.page.getByTestId('waiting')).toContainText('Your move');
  await kingdom.page.getByTestId('event-log').scrollIntoViewIfNeeded();
  await expect(kingdom.page.getByTestId('event-log')).toContainText(
    `${ownerName}'s ${met.units.length === 1 ? '1 unit' : `${met.units.length} units`} now serve ${hirerName} as mercenaries.`,
  );
  await kingdom.page.getByRole('tab', { name: 'Orders' }).click();
  // The hirer commands the leased unit, named as a mercenary: selecting it lights up its destinations.
  await expect(kingdom.page.getByTestId(`move-${unit}`)).toContainText(`mercenary of ${ownerName}`);
  await kingdom.page.getByTestId(`move-${unit}`).click();
  await expect(kingdom.page.locator('[data-testid^="dest-"]').first()).toBeVisible();
  await shot(kingdom.page, 'leased-unit');
  // The area card names the mercenaries and whose they are.
  // (The area's counters cover its middle, where a pointer would land: the hover is sent to the area.)
  await kingdom.page.locator(`[data-area="${area}"]`).dispatchEvent('pointerenter');
  await expect(kingdom.page.getByTestId('area-details')).toContainText(
    `${hirerName}, mercenaries of ${ownerName}`,
  );
  await shot(kingdom.page, 'area-card');

  // The hirer ends the agreement: the units go home at the next turn start.
  await decide(kingdom.page, kingdom.page.getByTestId(`lease-end-${met.owner}`));
  await expect(kingdom.page.getByTestId(`lease-end-${met.owner}`)).toBeHidden();
  const ending = `${hirerName} ends the mercenary agreement between ${ownerName} and ${hirerName}: the units go home at the start of the next turn.`;
  await kingdom.page.getByRole('tab', { name: 'History' }).click();
  await expect(kingdom.page.getByTestId('event-log')).toContainText(ending);
  await shot(kingdom.page, 'ended');
  // The barbarian's page shows the same end.
  await barbarian.page.getByRole('tab', { name: 'History' }).click();
  await expect(barbarian.page.getByTestId('event-log')).toContainText(ending);
  await shot(barbarian.page, 'ended');

  // The driver plays on to the next turn start: the units go home, and the turn the lease began is on
  // the barbarian's record sheet with the price in column 3 (other income, 14.3.3).
  await duel({ stage: 'turn', base, accounts, worldId, seed: meeting.seed, turn: turn + 1 });
  await expect(barbarian.page.getByTestId('turn')).toHaveText(String(turn + 1));
  await barbarian.page.getByRole('tab', { name: 'Scores' }).click();
  const row = barbarian.page
    .getByTestId('record-sheet')
    .locator('tbody tr')
    .filter({ has: barbarian.page.locator('td:nth-child(2)', { hasText: new RegExp(`^${turn}$`) }) });
  await expect(row).toHaveCount(1);
  await row.scrollIntoViewIfNeeded();
  await shot(barbarian.page, 'record-sheet');
  await expect(row.locator('td:nth-child(4)')).toHaveText(String(met.price));
  await expect(row.locator('td:nth-child(5)')).toHaveText(String(before.vp + met.price));
  expect(pageErrors).toEqual([]);
  await barbarian.ctx.close();
  await kingdom.ctx.close();
});

interface TributeDue {
  accounts: DriveAccount[];
  worldId: string;
  turn: number;
  found: { payer: string; receiver: string; most: number; receiverMoney: number; receiverStage: string };
  players: unknown;
}

test('a realm pays tribute to the player whose turn it is, and the receiver has it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL as string;
  // Same serialized driver, another seed: a kingdom or empire next to the phasing player's units (13.7).
  const due = await duel<TributeDue>({
    stage: 'meet',
    goal: 'tribute',
    base,
    names: [`stilicho_${stamp}`, `radagaisus_${stamp}`],
    seedBase: 'e2e-tribute',
  });
  const { payer, receiver, most, receiverMoney, receiverStage } = due.found;
  const accountOf = (player: string) => due.accounts[Number(player.slice(1)) - 1] as DriveAccount;
  const pageErrors: string[] = [];
  const open = async (player: string) => {
    const ctx = await browser.newContext();
    await ctx.addCookies([browserCookie(accountOf(player), base)]);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`/#/world/${due.worldId}`);
    await expect(page.getByTestId('account-name')).toHaveText(accountOf(player).name);
    await expect(page.getByTestId('map')).toBeVisible();
    return { ctx, page };
  };
  const paying = await open(payer);
  const receiving = await open(receiver);
  const payerName = accountOf(payer).name;
  const receiverName = accountOf(receiver).name;
  const purse = receiverStage === 'barbarian' ? 'hoard' : 'treasury';
  await expect(receiving.page.getByText(` in the ${purse}, `)).toContainText(
    `${receiverMoney} in the ${purse}`,
  );

  // The payer's panel offers tribute to the phasing player, up to what it may pay this turn.
  const form = paying.page.getByText(`Tribute to ${receiverName}`);
  await expect(form).toBeVisible();
  const amount = paying.page.getByLabel('Tribute amount');
  await expect(amount).toHaveAttribute('max', String(most));
  const paid = Math.min(most, 3);
  await amount.fill(String(paid));
  await shot(paying.page, 'tribute-form');
  await decide(paying.page, paying.page.getByRole('button', { name: `Pay ${paid} in tribute` }));
  await paying.page.getByRole('tab', { name: 'History' }).click();
  await expect(paying.page.getByTestId('event-log')).toContainText(
    `${payerName} paid ${receiverName} ${paid} in tribute.`,
  );
  await shot(paying.page, 'tribute-paid');
  // Tribute received is money and VP of the receiver (13.7, column 3).
  await expect(receiving.page.getByText(` in the ${purse}, `)).toContainText(
    `${receiverMoney + paid} in the ${purse}`,
  );
  await shot(receiving.page, 'tribute-received');
  expect(pageErrors).toEqual([]);
  await paying.ctx.close();
  await receiving.ctx.close();
});
