/**
 * A stranger learns the game on screen: signs up, creates a world (seated at once), reads the rules
 * guide from the orders panel, is warned before a move that would lose a tribe, sees the chances of
 * each combat result, replays the last turn, and finds no sideways scrolling on a 360 px phone.
 * Screenshots of each step land in e2e/artifacts/newcomer-*.png.
 */
import { CSRF_HEADER } from '@bke/protocol';
import { expect, type Page, test } from '@playwright/test';

const BASE = process.env.E2E_BASE_URL ?? '';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/newcomer-${name}.png` });

/** Clicks and waits for the world to move on (a new view version). */
async function decide(page: Page, button: ReturnType<Page['getByTestId']>) {
  const before = await page.getByTestId('banner').getAttribute('data-version');
  await button.click();
  await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', before ?? '');
  // The legal orders follow the view's patch: let them land.
  await page.waitForTimeout(300);
}

/** The page scrolls sideways when its content is wider than the window. */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('a newcomer learns the game on screen', async ({ page, browser }) => {
  test.setTimeout(360_000);
  await page.goto('/#/signup');
  await page.getByLabel('Name', { exact: true }).fill(`newcomer_${stamp}`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByTestId('account-name')).toHaveText(`newcomer_${stamp}`);

  await page.getByLabel('Name', { exact: true }).fill(`First steps ${stamp}`);
  await page.getByRole('radio', { name: /Live/ }).check();
  await page.getByLabel('Minutes per phase', { exact: true }).fill('30');
  await page.getByRole('button', { name: 'Create world' }).click();
  await expect(page).toHaveURL(/#\/world\//);
  const worldId = decodeURIComponent(/#\/world\/([^/]+)/.exec(page.url())?.[1] ?? '');
  // Seated on creation (the form's "only watch" was left off).
  await expect(page.getByTestId('waiting')).toContainText('Your move', { timeout: 30_000 });
  await page.waitForTimeout(300);

  // The whole map at the first zoom: counters big enough to read, the names that have room.
  await page.getByRole('button', { name: 'Show the whole map' }).click();
  await expect.poll(() => page.locator('[data-testid^="name-"]').count()).toBeGreaterThan(15);
  // Counters keep at least 16 px where areas crowd together, and 24 px where there is room.
  const sides = await page
    .locator('[data-testid^="neutral-"] rect')
    .evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().width));
  expect(Math.min(...sides)).toBeGreaterThanOrEqual(15.5);
  expect(Math.max(...sides)).toBeGreaterThanOrEqual(23.5);
  await shot(page, 'map-first-zoom');
  await page.getByRole('button', { name: 'Back to the areas that matter now' }).click();

  const orders = page.getByTestId('orders');
  // Entry: GERMAN 1 in Cherusci; then no combination; the first tribe splits.
  await orders.getByRole('button', { name: 'GERMAN 1', exact: true }).click();
  await decide(page, orders.getByRole('button', { name: 'Cherusci', exact: true }));
  await expect(page.getByTestId('phase')).toHaveText(/Tribal combination|Tribal growth/);
  if ((await page.getByTestId('phase').textContent()) === 'Tribal combination')
    await decide(page, page.getByTestId('end-phase'));
  await expect(page.getByTestId('phase')).toHaveText('Tribal growth');
  await decide(page, orders.getByRole('button', { name: /^Split/ }).first());
  await decide(page, page.getByTestId('end-phase'));
  await expect(page.getByTestId('phase')).toHaveText('Movement');

  // "What can I do now?" opens the guide at the movement rules, each line citing its section.
  await orders.getByTestId('what-now').click();
  const help = orders.getByTestId('phase-guide');
  await expect(help).toContainText('Movement');
  await expect(help.locator('section.focus')).toContainText('§4.3.3');
  await shot(page, 'guide-from-orders');
  await orders.getByTestId('what-now').click();
  await expect(help).toBeHidden();

  // Ending movement with both tribes in Cherusci would lose one (9.2): the panel says so.
  await expect(orders.getByTestId('foreseen-cost')).toContainText('only one tribe may stay in Cherusci');

  // The first tribe marches to the Hermunduri; the second is picked.
  await orders.getByRole('button', { name: 'Tribe (1)-1 in Cherusci' }).first().click();
  await decide(page, page.getByTestId('dest-hermunduri'));
  await orders.getByRole('button', { name: 'Tribe (1)-1 in Cherusci' }).first().click();
  // Following its brother loses it; the map and the list both mark it.
  const crowd = page.getByTestId('dest-hermunduri');
  await expect(crowd).toContainText('only loses a unit');
  await shot(page, 'consequence-list');
  const before = await page.getByTestId('banner').getAttribute('data-version');
  await crowd.click();
  const confirm = page.getByTestId('confirm-cost');
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('1 tribe would be removed at the end of movement');
  await expect(confirm).toContainText('(rule 9.2)');
  await expect(page.getByTestId('only-loses')).toBeVisible();
  await shot(page, 'consequence-confirm');
  // Nothing was sent: the world has not moved on.
  await expect(page.getByTestId('banner')).toHaveAttribute('data-version', before ?? '');
  await page.getByTestId('confirm-cancel').click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('banner')).toHaveAttribute('data-version', before ?? '');

  // The second tribe goes somewhere free instead; the turn is played to its end.
  if (!(await page.getByTestId('dest-chatti').isVisible()))
    await orders.getByRole('button', { name: 'Tribe (1)-1 in Cherusci' }).first().click();
  await decide(page, page.getByTestId('dest-chatti'));
  for (let i = 0; i < 20 && (await page.getByTestId('turn').textContent()) === '1'; i++) {
    const end = page.getByTestId('end-phase');
    if (await end.isVisible()) await decide(page, end);
    else await page.waitForTimeout(300);
  }
  await expect(page.getByTestId('turn')).toHaveText('2');

  // Turn 2: two tribes combine into a fighting unit, chosen on the map: a tribe, its partner, then
  // (when they could meet in more than one area) the meeting area.
  await expect(page.getByTestId('phase')).toHaveText('Tribal combination');
  const v2 = await page.getByTestId('banner').getAttribute('data-version');
  await page.locator('g.counter.pickable').first().click();
  await page.locator('g.counter.pickable:not(.chosen)').first().click();
  await shot(page, 'combine-on-map');
  if ((await page.getByTestId('banner').getAttribute('data-version')) === v2)
    await page.locator('path.dest[data-area]').first().dispatchEvent('click');
  await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', v2 ?? '');
  await page.waitForTimeout(300);

  // On to the combat phase; the fighting unit stands by a neutral garrison. The chance of each
  // result shows before the attack is confirmed (7.1), and the attack is then made.
  for (let i = 0; i < 10 && (await page.getByTestId('phase').textContent()) !== 'Combat'; i++) {
    const end = page.getByTestId('end-phase');
    if (await page.getByTestId('confirm-cost').isVisible())
      await decide(page, page.getByTestId('confirm-anyway'));
    else if (await end.isVisible()) await decide(page, end);
    else await page.waitForTimeout(300);
  }
  await expect(page.getByTestId('phase')).toHaveText('Combat');
  const target = orders.locator('[data-testid^="attack-"]:not([data-testid="attack-plan"])').first();
  await target.click();
  await expect(page.getByTestId('odds').first()).toContainText(/odds|too weak/);
  await expect(page.getByTestId('combat-chances')).toContainText('%');
  await expect(page.getByTestId('combat-chances')).toContainText('Two dice decide (rule 7.1)');
  await page.getByTestId('combat-chances').scrollIntoViewIfNeeded();
  await shot(page, 'attack-chances');
  await decide(page, page.getByTestId('confirm-attack'));
  await expect(page.getByTestId('combat-result')).toContainText(/attacked .* at .*: /);
  await shot(page, 'attack-result');

  // The combat table and the chance of each result, from the server's copy of the engine's table.
  await page.goto('/#/guide/7.1');
  const table = page.getByTestId('combat-table');
  await expect(table.getByRole('table')).toBeVisible();
  await table.getByTestId('crt-column').selectOption('3-2');
  await expect(table.getByTestId('crt-chances')).toContainText('11 % defender retreats 1 area (DR1)');
  await table.scrollIntoViewIfNeeded();
  await shot(page, 'combat-chances');
  await page.goBack();

  // Replay: turn 1, step by step, in words and on the map.
  await page.getByTestId('replay-tab').click();
  await expect(page.getByTestId('replay-turn')).toHaveValue('1');
  const stepText = page.getByTestId('replay-step');
  await expect(stepText).toBeVisible();
  const seen: string[] = [];
  for (let i = 0; i < 30; i++) {
    seen.push((await stepText.textContent()) ?? '');
    if (await page.getByTestId('replay-next').isDisabled()) break;
    await page.getByTestId('replay-next').click();
  }
  expect(seen.join(' ')).toContain('to Hermunduri');
  expect(seen.join(' ')).toContain('to Chatti');
  // The board is redrawn as it stood at each step: no tribe in the Hermunduri as the turn began,
  // one there from the step that moved it on.
  await expect(page.getByTestId('replay-redrawn')).toBeVisible();
  await page.getByRole('button', { name: /The board as turn 1 began/ }).click();
  await expect(page.getByTestId('counter-hermunduri-tribe')).toHaveCount(0);
  await shot(page, 'replay-start');
  await page
    .getByRole('button', { name: /to Hermunduri/ })
    .first()
    .click();
  await expect(page.getByTestId('counter-hermunduri-tribe')).toHaveCount(1);
  await expect(page.getByTestId('counter-chatti-tribe')).toHaveCount(0);
  await shot(page, 'replay');

  // The newcomer's profile: the world, the cycle as GERMAN 1, the best result.
  await page.getByRole('tab', { name: 'Players' }).click();
  await page
    .getByRole('link', { name: /profile/ })
    .first()
    .click();
  await expect(page.getByTestId('profile')).toContainText(`First steps ${stamp}`);
  await expect(page.getByTestId('profile-cycles')).toContainText('GERMAN 1');
  await expect(page.getByTestId('profile-best')).toContainText('as GERMAN 1');
  await shot(page, 'profile');
  await page.goBack();

  // A phone held upright: nothing scrolls sideways, on the world page, the lobby and the guide.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.getByRole('tab', { name: 'Orders' }).click();
  await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
  await shot(page, 'phone-world');
  await page.goto('/#/');
  await expect(page.getByTestId('world-list')).toBeVisible();
  await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
  await shot(page, 'phone-lobby');
  await page.goto('/#/guide/2.3');
  await expect(page.getByTestId('guide')).toBeVisible();
  await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
  await shot(page, 'phone-guide');

  // A visitor without an account watches: the map follows the action for spectators by default.
  const visitor = await browser.newPage();
  await visitor.goto(`/#/world/${worldId}`);
  await expect(visitor.getByTestId('watching')).toBeVisible();
  await expect(visitor.getByTestId('follow')).toBeChecked();
  await visitor.close();

  // The world is closed by an admin: the lobby's "Finished" filter lists it with its final standings.
  const admin = await browser.newContext({ baseURL: BASE });
  const headers = { origin: BASE, [CSRF_HEADER]: '1' };
  const login = await admin.request.post('/api/auth/login', {
    data: { username: 'e2e_admin', password: 'e2e-admin-password' },
    headers,
  });
  expect(login.ok()).toBe(true);
  const closed = await admin.request.post(`/api/moderation/worlds/${worldId}/close`, {
    data: { reason: 'The first steps are done.' },
    headers,
  });
  expect(closed.ok()).toBe(true);
  await admin.close();
  await page.goto('/#/');
  await page.getByTestId('filter-finished').check();
  const finished = page.getByTestId('finished-world').filter({ hasText: `First steps ${stamp}` });
  await expect(finished).toBeVisible();
  await expect(finished.getByTestId('final-standing')).toContainText(`newcomer_${stamp}`);
  await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
  await shot(page, 'phone-finished');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'finished');
});
