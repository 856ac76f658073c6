/**
 * A rollback to before a player joined takes her seat: the moderator's confirmation names it
 * before, and her open page says so in words at once, drops the orders she can no longer give and
 * shows the world as it now stands, as a spectator's; after a reload it still says why.
 * Two players' turns are driven by e2e/duel.ts; screenshots land in e2e/artifacts/unseat-*.png.
 */
import { expect, type Page, test } from '@playwright/test';
import { check } from '../axe.ts';
import { duel } from '../goals.ts';
import { accountOf, enter, moderate, worldOfTwo } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/unseat-${name}.png` });

test.describe.configure({ timeout: 480_000 });

test('a rollback that unseats a player says so first and tells her at once', async ({ browser, baseURL }) => {
  const base = baseURL as string;
  const worldName = `Unseat ${stamp}`;
  const names = [`aetius_${stamp}`, `galla_${stamp}`];
  const { a, b, worldUrl } = await worldOfTwo(browser, names[0] as string, names[1] as string, worldName);
  const worldId = decodeURIComponent(worldUrl.split('#/world/')[1] ?? '');
  const accounts = [await accountOf(a, names[0] as string), await accountOf(b, names[1] as string)];
  await duel({ stage: 'turn', base, accounts, worldId, seed: `e2e-unseat-${stamp}`, turn: 2 });
  await expect(a.page.getByTestId('turn')).toHaveText('2');

  // Honoria joins during turn 2: her horde is to enter at the start of turn 3.
  const late = `honoria_${stamp}`;
  const c = await enter(browser, 'signup', late);
  await c.page.goto(worldUrl);
  await c.page.getByTestId('join-world').click();
  await expect(c.page.getByTestId('join-world')).toBeHidden();
  await expect(c.page.getByTestId('watching')).toBeHidden();
  await expect(c.page.getByTestId('no-orders')).toContainText('You enter at the start of turn 3');

  // The moderator returns the world to the start of turn 2; the confirmation names her seat.
  const admin = await moderate(browser, worldName);
  await admin.page.getByTestId('mod-reason').fill('Turn 2 was played on a broken deadline');
  await admin.page.getByLabel('Return to the start of turn').selectOption({ label: 'Turn 2' });
  await admin.page.getByRole('button', { name: 'Roll back…' }).click();
  const dialog = admin.page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText(`This seat is freed, as its player joined after turn 2 began: ${late}.`);
  await expect(dialog).not.toContainText(names[0] as string);
  await shot(admin.page, 'confirm');
  await check(admin.page, 'unseat-confirm');
  // Put aside once (nothing happens), then asked again and confirmed.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  await admin.page.getByRole('button', { name: 'Roll back…' }).click();
  await dialog.getByRole('button', { name: 'Roll back to turn 2' }).click();
  await expect(admin.page.getByTestId('mod-message')).toContainText('back to the start of turn 2', {
    timeout: 60_000,
  });

  // Her page, at once: why, in words; no seat, no orders; the world as it now stands.
  const told = c.page.getByTestId('personal-notice');
  await expect(told).toContainText(
    `A moderator returned “${worldName}” to the start of turn 2, before you joined it: your seat went with the undone turns`,
  );
  await expect(told).toContainText('Turn 2 was played on a broken deadline');
  await expect(c.page.getByTestId('watching')).toBeVisible({ timeout: 20_000 });
  await expect(c.page.getByTestId('join-world')).toBeVisible();
  await expect(c.page.getByRole('button', { name: 'Take back last order' })).toHaveCount(0);
  await expect(c.page.getByTestId('end-phase')).toHaveCount(0);
  await expect(c.page.getByTestId('turn')).toHaveText('2');
  await shot(c.page, 'told');
  await check(c.page, 'unseat-told');
  // After a reload: still watching, still told why.
  await c.page.reload();
  await expect(c.page.getByTestId('watching')).toBeVisible();
  await expect(c.page.getByTestId('personal-notice')).toContainText('before you joined it');
  // On another browser, with no notice kept: the world's page still says why she only watches.
  const elsewhere = await enter(browser, 'login', late);
  await elsewhere.page.goto(worldUrl);
  await expect(elsewhere.page.getByTestId('unseated-here')).toHaveText(
    'A moderator returned this world to the start of turn 2, before you had joined: your seat went with the undone turns. You may join again as a new horde.',
  );
  await expect(elsewhere.page.getByTestId('personal-notice')).toHaveCount(0);
  await shot(elsewhere.page, 'next-visit');
  await check(elsewhere.page, 'unseat-next-visit');
  await elsewhere.ctx.close();
  // The players who were there from the start keep their seats.
  await expect(a.page.getByTestId('watching')).toBeHidden();
  await expect(a.page.getByTestId('moderation-notice')).toContainText(
    'returned this world to the start of turn 2',
  );
  await shot(a.page, 'player-kept');
  for (const p of [a, b, c, admin]) await p.ctx.close();
});
