/**
 * A stranger learns the game on screen: signs up, creates a world, plays the first turn of a horde
 * and is warned, before committing, that a move the map lights would lose a tribe. Screenshots of
 * each step land in e2e/artifacts/newcomer-*.png.
 */
import { expect, type Page, test } from '@playwright/test';

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

test('a newcomer is told what a move costs before committing to it', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/#/signup');
  await page.getByLabel('Name').fill(`newcomer_${stamp}`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByTestId('account-name')).toHaveText(`newcomer_${stamp}`);

  await page.getByLabel('Name').fill(`First steps ${stamp}`);
  await page.getByRole('radio', { name: /Live/ }).check();
  await page.getByLabel('Minutes per phase', { exact: true }).fill('30');
  await page.getByRole('button', { name: 'Create world' }).click();
  await expect(page).toHaveURL(/#\/world\//);
  await page.getByTestId('join-world').click();
  await expect(page.getByTestId('waiting')).toContainText('Your move', { timeout: 30_000 });
  await page.waitForTimeout(300);

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
});
