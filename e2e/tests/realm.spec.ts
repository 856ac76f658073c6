/**
 * The realm's decisions made in the browser — an empire's garrisons (11.1), a rebellion's
 * choice (11.3–11.4), a ship sailing with a unit aboard (8.1) and a landing fought ashore (8.2).
 * Each world is reproducible: the driver (e2e/drive.ts) finds a dice seed whose world reaches the
 * situation when the engine's sim policy plays it, the admin creates the world with that seed, and a
 * real Socket.IO client of the player plays the policy through the server up to that moment. Then
 * the player's page decides.
 * Screenshots in e2e/artifacts/realm-*.png.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import { browserCookie, type DriveOutput, drive, type Goal } from '../goals.ts';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/realm-${name}.png` });

/** Plays a seeded world up to `goal`, then opens the player's world page in a browser. */
async function reach<F>(browser: Browser, base: string, goal: Goal, name: string) {
  const driven: DriveOutput<F> = await drive<F>({ base, goal, name, seeded: true, seedBase: `e2e-${goal}` });
  const ctx = await browser.newContext();
  await ctx.addCookies([browserCookie(driven.account, base)]);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(`/#/world/${driven.worldId}`);
  await expect(page.getByTestId('account-name')).toHaveText(driven.account.name);
  await expect(page.getByTestId('map')).toBeVisible();
  await expect(page.getByTestId('waiting')).toContainText('Your move');
  return { driven, ctx, page };
}

/** Clicks `button` and waits for the world's version to move on. */
async function decide(page: Page, button: ReturnType<Page['getByTestId']>) {
  const before = await page.getByTestId('banner').getAttribute('data-version');
  await button.click();
  await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', before ?? '');
}

test('a kingdom becoming an empire chooses its garrisons in the browser', async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const { page, ctx, driven } = await reach<{ choices: number }>(
    browser,
    baseURL as string,
    'empireGarrisons',
    `justin_${stamp}`,
  );
  const choices = page.getByTestId('realm-garrisons');
  await expect(choices).toBeVisible();
  await expect(choices.getByRole('button')).not.toHaveCount(0);
  await shot(page, 'empire-garrisons');
  await decide(page, choices.getByRole('button').first());
  await expect(page.getByTestId('realm-garrisons')).toBeHidden();
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('event-log')).toContainText('kingdom became an empire');
  await page.getByRole('tab', { name: 'Chronicle' }).click();
  await expect(page.getByTestId('chronicle')).toContainText(/kingdom of .* (becomes|grows into) an empire/);
  await shot(page, 'empire-chronicle');
  // Column 11 of the turn record sheet marks the turn the kingdom became an empire (14.3.3).
  await page.getByRole('tab', { name: 'Scores' }).click();
  const row = page
    .getByTestId('record-sheet')
    .locator('tbody tr')
    .filter({ has: page.locator('td:nth-child(2)', { hasText: new RegExp(`^${driven.turn}$`) }) });
  await expect(row.locator('td:nth-child(12)')).toContainText('became an empire');
  await shot(page, 'empire-record-sheet');
  await ctx.close();
});

const REBELLION_LISTS: Record<string, string> = {
  realmUnits: 'realm-units',
  realmProvince: 'realm-province',
  realmCities: 'realm-cities',
  realmCapital: 'realm-capital',
};

const REBELLION_OUTCOMES: Record<string, RegExp> = {
  realmUnits: /lost \d+ unit\(s\)/,
  realmProvince: /revolted against/,
  realmCities: /revolted against/,
  realmCapital: /capital is now|has no capital/,
};

test('a rebellion asks its question and the player answers it in the browser', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const { page, ctx, driven } = await reach<{ type: string }>(
    browser,
    baseURL as string,
    'rebellionChoice',
    `attila_${stamp}`,
  );
  const list = page.getByTestId(REBELLION_LISTS[driven.found.type] ?? 'realm-units');
  await expect(list).toBeVisible();
  await shot(page, `rebellion-${driven.found.type}`);
  await page.getByRole('tab', { name: 'History' }).click();
  // What brought the question: a rebellion roll, or a revival moving the capital.
  await expect(page.getByTestId('event-log')).toContainText(
    driven.found.type === 'realmCapital' ? /realm revives/ : /Rebellion in .*'s realm/,
  );
  await shot(page, 'rebellion-history');
  const outcome = REBELLION_OUTCOMES[driven.found.type] ?? /./;
  const count = async () =>
    ((await page.getByTestId('event-log').textContent()) ?? '').split(new RegExp(outcome, 'g')).length - 1;
  const outcomesBefore = await count();
  await page.getByRole('tab', { name: 'Orders' }).click();
  await decide(page, list.getByRole('button').first());
  await expect(page.getByTestId(REBELLION_LISTS[driven.found.type] ?? 'realm-units')).toBeHidden();
  await shot(page, 'rebellion-answered');
  // The answer takes effect: cities revolt, units are lost, or the capital moves (11.4, 10.7).
  await page.getByRole('tab', { name: 'History' }).click();
  await expect.poll(count).toBeGreaterThan(outcomesBefore);
  await ctx.close();
});

interface ShipFound {
  ship: string;
  cargo: string[];
  fromName: string;
  to: string;
  toName: string;
}

/** Reaches a world where a ship with cargo can sail, then picks the ship and its cargo in the browser. */
async function boardShip(browser: Browser, base: string, goal: Goal, name: string) {
  const { page, ctx, driven } = await reach<ShipFound>(browser, base, goal, name);
  const { ship, cargo, to, toName } = driven.found;
  await expect(page.getByTestId('phase')).toHaveText('Movement');
  await page.getByTestId(`ship-${ship}`).click();
  await page
    .getByTestId(`cargo-${cargo.join('-')}`)
    .getByRole('radio')
    .check();
  return { page, ctx, to, toName };
}

test('a ship sails with a unit aboard, chosen in the browser', async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const { page, ctx, to, toName } = await boardShip(
    browser,
    baseURL as string,
    'shipWithCargo',
    `genseric_${stamp}`,
  );
  const voyage = page.getByTestId(`voyage-${to}`);
  await expect(voyage).toBeVisible();
  await voyage.hover();
  await expect(page.getByTestId('route')).toBeVisible();
  await shot(page, 'ship-voyage');
  await decide(page, voyage);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('event-log')).toContainText(new RegExp(`moved ship to ${toName}|ship sank`));
  await shot(page, 'ship-history');
  await ctx.close();
});

test('a ship lands its cargo on an enemy-held coast and the landing is fought in the browser', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const { page, ctx, to, toName } = await boardShip(
    browser,
    baseURL as string,
    'shipLanding',
    `hengist_${stamp}`,
  );
  const landing = page.getByTestId(`voyage-${to}`);
  await expect(landing).toHaveText(`Land in ${toName}`);
  await shot(page, 'landing-voyage');
  await decide(page, landing);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('event-log')).toContainText(`waits off ${toName}`);
  await page.getByRole('tab', { name: 'Orders' }).click();
  // 8.2: the landing must be fought in this turn's combat phase; ending combat waits for it.
  await decide(page, page.getByTestId('end-phase'));
  await expect(page.getByTestId('phase')).toHaveText('Combat');
  const attack = page.getByTestId(`attack-${to}`);
  await expect(attack).toContainText(`Landing: ${toName}`);
  await attack.click();
  await expect(page.getByTestId('odds').first()).toContainText(/odds|too weak/);
  await shot(page, 'landing-attack');
  await decide(page, page.getByTestId('confirm-attack'));
  await expect(page.getByTestId('combat-result')).toContainText(`in ${toName} at `);
  await shot(page, 'landing-result');
  // Whatever the dice asked next (losses, retreats, advances), until the landing is settled.
  const orders = page.getByTestId('orders');
  const log = page.getByTestId('event-log');
  const settled = new RegExp(`landed \\d+ unit\\(s\\) in ${toName}|landing in ${toName} failed`);
  for (let i = 0; i < 10; i++) {
    await page.getByRole('tab', { name: 'History' }).click();
    if (settled.test((await log.textContent()) ?? '')) break;
    await page.getByRole('tab', { name: 'Orders' }).click();
    for (const name of ['Stay put', /^Remove these/, /^→/, /^Into /, /^Accept/]) {
      const b = orders.getByRole('button', { name }).first();
      if (await b.count()) {
        await decide(page, b);
        break;
      }
    }
  }
  await expect(log).toContainText(settled);
  await shot(page, 'landing-history');
  await ctx.close();
});
