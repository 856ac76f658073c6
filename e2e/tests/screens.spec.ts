/**
 * What the screen says is true, seen from the affected player's browser as well as the moderator's:
 * a bad world link, a paused world, a removal, a mute and a ban reach the player at once in words,
 * with the reason, and their screen moves to the true state; codes, ids and ISO times never show.
 */
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, ADMIN_PASSWORD, enter, moderate, worldOfTwo } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/screens-${name}.png` });
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
// Buttons on the orders tab that would act on the world. "What now?" explains, and "Analyse this
// position" opens the private board in the page (nothing is sent), so both stay when orders stop.
const actingButtons = (page: Page) =>
  page
    .getByRole('tabpanel')
    .locator('button:enabled:not([data-testid="what-now"]):not([data-testid="analyse-now"])');

// Several browsers, sign-ups and a moderator each: more than the default minute on a shared machine.
test.describe.configure({ timeout: 180_000 });

test('a link to a world that does not exist says so and leads back to the worlds', async ({ page }) => {
  for (const bad of ['does-not-exist', '6f1c2a4e-0000-4000-8000-00000000dead']) {
    await page.goto(`/#/world/${bad}`);
    const missing = page.getByTestId('world-missing');
    await expect(missing.getByRole('heading', { name: 'This world does not exist' })).toBeVisible();
    await expect(page.getByText('Opening the world…')).toHaveCount(0);
    await expect(page.getByText('did not understand')).toHaveCount(0);
  }
  await shot(page, 'world-missing');
  await page.getByRole('link', { name: 'Back to the list of worlds' }).click();
  await expect(page).toHaveURL(/#\/$/);
  await expect(page.getByTestId('world-missing')).toHaveCount(0);
});

test('a paused world: its players are told why, have no move and no order button, until it resumes', async ({
  browser,
}) => {
  const worldName = `Halted ${stamp}`;
  const { a, b } = await worldOfTwo(browser, `aetius_${stamp}`, `bleda_${stamp}`, worldName);
  // Someone is waited for before the pause: their banner says "Your move".
  const waited = async () => {
    for (const p of [a.page, b.page])
      if ((await p.getByTestId('waiting').textContent())?.includes('Your move')) return p;
    return null;
  };
  await expect.poll(async () => (await waited()) !== null, { timeout: 20_000 }).toBe(true);
  const mover = (await waited()) as Page;

  const admin = await moderate(browser, worldName);
  await admin.page.getByTestId('mod-reason').fill('Server maintenance tonight');
  await admin.page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(admin.page.getByTestId('mod-message')).toHaveText(`Done: paused the world “${worldName}”.`);

  // The player whose move it was: told why at once, no "Your move", no order to click.
  await expect(mover.getByTestId('moderation-notice')).toContainText('paused this world');
  await expect(mover.getByTestId('moderation-notice')).toContainText('Server maintenance tonight');
  await expect(mover.getByTestId('world-paused')).toBeVisible();
  await expect(mover.getByTestId('waiting')).not.toContainText('Your move');
  await expect(mover).not.toHaveTitle(/Your move/);
  await expect(mover.getByTestId('orders-halted')).toBeVisible();
  await expect(actingButtons(mover)).toHaveCount(0);
  await shot(mover, 'paused-player');

  await admin.page.getByTestId('mod-reason').fill('Maintenance done');
  await admin.page.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(admin.page.getByTestId('mod-message')).toHaveText(`Done: resumed the world “${worldName}”.`);
  // The stale pause is gone: the notice now says it resumed, the banner no longer says paused.
  await expect(mover.getByTestId('world-paused')).toHaveCount(0);
  await expect(mover.getByTestId('moderation-notice')).toHaveCount(1);
  await expect(mover.getByTestId('moderation-notice')).toContainText('resumed this world');
  await expect(mover.getByTestId('orders-halted')).toHaveCount(0);
  await expect(mover.getByTestId('waiting')).toContainText('Your move');
  await shot(mover, 'resumed-player');

  // The moderators' notices in chat are not a player's words: nothing to report.
  await mover.getByTestId('chat-tab').click();
  await expect(mover.getByTestId('chat-system').first()).toContainText('Server maintenance tonight');
  await expect(mover.getByTestId('chat-system').getByRole('button', { name: 'Report' })).toHaveCount(0);
  // A private channel says who can read it.
  await mover.getByRole('tablist', { name: 'Chat channels' }).getByRole('tab').nth(1).click();
  await expect(mover.getByTestId('private-readers')).toContainText('moderators');
  await shot(mover, 'private-chat');

  // The audit log in words: names and local times, no ids, no ISO timestamps.
  await admin.page.getByRole('tab', { name: 'Audit log' }).click();
  const audit = admin.page.getByTestId('mod-audit');
  await expect(audit).toContainText(`paused the world “${worldName}”`);
  await expect(audit).not.toContainText(UUID);
  await expect(audit).not.toContainText(ISO);
  await shot(admin.page, 'audit-words');
  for (const c of [a.ctx, b.ctx, admin.ctx]) await c.close();
});

test('a removed player is told why at once, sees the true state, and needs consent to rejoin', async ({
  browser,
}) => {
  const worldName = `Removal ${stamp}`;
  const { a, b, worldUrl } = await worldOfTwo(browser, `attila_${stamp}`, `brenna_${stamp}`, worldName);
  const admin = await moderate(browser, worldName);
  // Seats by name and colour, never "p1 red".
  const seats = admin.page.locator('table').filter({ hasText: 'Missed turns' });
  await expect(seats).toContainText(`brenna_${stamp}`);
  await expect(seats).not.toContainText(/\bp\d\b/);
  await admin.page.getByTestId('mod-reason').fill('Threats in chat');
  await seats
    .locator('tr')
    .filter({ hasText: `brenna_${stamp}` })
    .getByRole('button', { name: 'Remove…' })
    .click();
  const dialog = admin.page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText(`brenna_${stamp}’s position is abandoned`);
  await expect(dialog).toContainText('cannot join this world again unless a moderator allows it');
  await shot(admin.page, 'confirm-removal');
  await dialog.getByRole('button', { name: `Remove brenna_${stamp}` }).click();
  await expect(admin.page.getByTestId('mod-message')).toContainText(`Done: removed brenna_${stamp}`);

  // Brenna's own screen: told why, back online as a spectator, no order buttons, no way to rejoin.
  const notice = b.page.getByTestId('personal-notice');
  await expect(notice).toContainText(`A moderator removed you from “${worldName}”`);
  await expect(notice).toContainText('Threats in chat');
  await expect(b.page.getByTestId('offline-banner')).toBeHidden({ timeout: 10_000 });
  await expect(b.page.getByTestId('watching')).toBeVisible();
  await expect(b.page.getByTestId('removed-here')).toBeVisible();
  await expect(b.page.getByTestId('join-world')).toHaveCount(0);
  await expect(actingButtons(b.page)).toHaveCount(0);
  await shot(b.page, 'removed-player');
  // After a reload still the same: the reason stays until dismissed, and no seat.
  await b.page.reload();
  await expect(b.page.getByTestId('personal-notice')).toContainText('Threats in chat');
  await expect(b.page.getByTestId('watching')).toBeVisible();
  await expect(b.page.getByTestId('removed-here')).toBeVisible();
  // The lobby says so on the world's row and offers no Join (the server would refuse it).
  await b.page.goto('/#/');
  const row = b.page.getByTestId('world-row').filter({ hasText: worldName });
  await expect(row.getByTestId('removed-from')).toHaveText('Removed by a moderator');
  await expect(row.getByRole('button', { name: 'Join' })).toHaveCount(0);
  await shot(b.page, 'removed-rejoin-refused');

  // A moderator consents; the player joins again.
  await admin.page.getByTestId('mod-reason').fill('Apologised to everyone');
  await admin.page.getByRole('button', { name: `Allow brenna_${stamp} back` }).click();
  await expect(admin.page.getByTestId('mod-message')).toContainText(`allowed brenna_${stamp} to join`);
  await b.page.goto(worldUrl);
  await b.page.getByTestId('personal-notice').getByRole('button', { name: 'Dismiss this notice' }).click();
  await b.page.getByTestId('join-world').click();
  await expect(b.page.getByTestId('watching')).toBeHidden();
  for (const c of [a.ctx, b.ctx, admin.ctx]) await c.close();
});

test('a mute and a ban reach the player at once, with their end in words', async ({ browser }) => {
  const worldName = `Muted ${stamp}`;
  const { a, b } = await worldOfTwo(browser, `audoin_${stamp}`, `bertha_${stamp}`, worldName);
  const admin = await enter(browser, 'login', ADMIN, ADMIN_PASSWORD);
  await admin.page.goto('/#/moderation');
  await admin.page.getByRole('tab', { name: 'Accounts' }).click();
  await admin.page.getByLabel('Account name starts with').fill(`audoin_${stamp}`);
  await admin.page.getByRole('button', { name: 'Search' }).click();
  await admin.page.getByTestId('mod-reason').fill('Shouting at everyone');
  const row = admin.page.getByTestId('mod-user').filter({ hasText: `audoin_${stamp}` });
  await row.getByRole('button', { name: 'Mute' }).click();
  await expect(row).toContainText('forever');
  await expect(row).not.toContainText('9999');
  await expect(admin.page.getByText(`Done: muted audoin_${stamp} forever.`)).toBeVisible();

  await expect(a.page.getByTestId('personal-notice')).toContainText('muted you in chat forever');
  await expect(a.page.getByTestId('personal-notice')).toContainText('Shouting at everyone');
  await a.page.getByTestId('chat-tab').click();
  await a.page.getByLabel('Message').fill('hello?');
  await a.page.getByRole('button', { name: 'Send' }).click();
  await expect(a.page.getByTestId('order-error')).toContainText('A moderator has muted you in chat forever.');
  await expect(a.page.getByTestId('order-error')).not.toContainText('chat/muted');
  await shot(a.page, 'muted-player');

  // A ban asks first, then signs the player out with the reason on their screen.
  await admin.page.getByLabel('Account name starts with').fill(`bertha_${stamp}`);
  await admin.page.getByRole('button', { name: 'Search' }).click();
  await admin.page.getByTestId('mod-reason').fill('Cheating with a second account');
  await admin.page
    .getByTestId('mod-user')
    .filter({ hasText: `bertha_${stamp}` })
    .getByRole('button', { name: 'Ban…' })
    .click();
  const dialog = admin.page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('signed out everywhere at once');
  await shot(admin.page, 'confirm-ban');
  await dialog.getByRole('button', { name: `Ban bertha_${stamp}` }).click();
  await expect(b.page.getByTestId('personal-notice')).toContainText('banned your account forever');
  await expect(b.page.getByTestId('personal-notice')).toContainText('Cheating with a second account');
  await expect(b.page.getByTestId('account-name')).toHaveCount(0);
  await expect(b.page.getByTestId('offline-banner')).toBeHidden({ timeout: 10_000 });
  await shot(b.page, 'banned-player');
  for (const c of [a.ctx, b.ctx, admin.ctx]) await c.close();
});

test('a lost connection shows within 10 seconds, with a way on, and clears when it is back', async ({
  browser,
}) => {
  const p = await enter(browser, 'signup', `offa_${stamp}`);
  await expect(p.page.getByTestId('connection-status')).toHaveText('Connected');
  const lost = Date.now();
  await p.ctx.setOffline(true);
  await expect(p.page.getByTestId('offline-banner')).toBeVisible({ timeout: 10_000 });
  expect(Date.now() - lost).toBeLessThan(10_000);
  await expect(p.page.getByTestId('offline-banner')).toContainText('You are offline');
  await expect(p.page.getByTestId('reconnect-now')).toBeVisible();
  await shot(p.page, 'offline');
  await p.ctx.setOffline(false);
  await p.page.getByTestId('reconnect-now').click();
  await expect(p.page.getByTestId('offline-banner')).toBeHidden({ timeout: 15_000 });
  await expect(p.page.getByTestId('connection-status')).toHaveText('Connected');
  await p.ctx.close();
});

test('a session that ended elsewhere says so on the open page, takes away the orders, and leads to log in', async ({
  browser,
}) => {
  const name = `sidonius_${stamp}`;
  const p = await enter(browser, 'signup', name);
  await p.page.getByLabel('Name', { exact: true }).fill(`Ended ${stamp}`);
  await p.page.getByRole('button', { name: 'Create world' }).click();
  await expect(p.page).toHaveURL(/#\/world\//);
  await expect(p.page.getByTestId('waiting')).toContainText('Your move');
  // The same session in another browser logs out: the server deletes it, as when it expires, and
  // ends the sockets opened with it.
  const elsewhere = await browser.newContext();
  await elsewhere.addCookies(await p.ctx.cookies());
  const other = await elsewhere.newPage();
  await other.goto('/#/');
  await expect(other.getByTestId('account-name')).toHaveText(name);
  await other.getByRole('button', { name: 'Log out' }).click();
  await expect(other.getByTestId('account-name')).toHaveCount(0);

  const ended = p.page.getByTestId('signed-out-elsewhere');
  await expect(ended).toContainText('You were signed out');
  await expect(p.page.getByTestId('account-name')).toHaveCount(0);
  await expect(p.page.getByTestId('waiting')).not.toContainText('Your move');
  await expect(actingButtons(p.page)).toHaveCount(0);
  await shot(p.page, 'session-ended');
  await ended.getByRole('link', { name: 'Log in again' }).click();
  await p.page.getByLabel('Name', { exact: true }).fill(name);
  await p.page.getByLabel('Password').fill('correct horse battery');
  await p.page.getByRole('button', { name: 'Log in' }).click();
  await expect(p.page.getByTestId('account-name')).toHaveText(name, { timeout: 60_000 });
  await expect(p.page.getByTestId('signed-out-elsewhere')).toHaveCount(0);
  await shot(p.page, 'session-back');
  for (const c of [p.ctx, elsewhere]) await c.close();
});
