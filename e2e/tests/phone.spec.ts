/**
 * A turn on a phone held upright (390 × 844): the world page fits the screen below the header, the
 * map above and the orders below, each scrolling on its own, so the page itself never scrolls
 * between looking at the map and giving an order, and a confirmation stays in view.
 */
import { expect, type Page, test } from '@playwright/test';
import { enter } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);

/** How far the page scrolls, and whether the box of a test id lies inside the screen. */
const pageScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollHeight - document.documentElement.clientHeight);
async function onScreen(page: Page, testid: string) {
  const box = await page.getByTestId(testid).first().boundingBox();
  return !!box && box.y >= 0 && box.y + Math.min(box.height, 40) <= 844 && box.height > 0;
}

test('a phone-sized turn: map and orders both on screen, no page scrolling', async ({ browser }) => {
  test.setTimeout(300_000);
  const { ctx, page } = await enter(browser, 'signup', `phone_${stamp}`);
  await page.getByLabel('Name', { exact: true }).fill(`Phone ${stamp}`);
  await page.getByRole('radio', { name: /Live/ }).check();
  await page.getByLabel('Minutes per phase', { exact: true }).fill('30');
  await page.getByRole('button', { name: 'Create world' }).click();
  await expect(page.getByTestId('waiting')).toContainText('Your move', { timeout: 30_000 });
  await page.setViewportSize({ width: 390, height: 844 });

  const orders = page.getByTestId('orders');
  const decide = async (button: ReturnType<Page['getByRole']>) => {
    const before = await page.getByTestId('banner').getAttribute('data-version');
    await button.click();
    if (await page.getByTestId('confirm-cost').isVisible()) {
      expect(await onScreen(page, 'confirm-cost')).toBe(true);
      await page.getByTestId('confirm-anyway').click();
    }
    await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', before ?? '', {
      timeout: 30_000,
    });
    // After each order: nothing to scroll on the page, and the map and the orders both in view.
    await expect.poll(() => pageScroll(page)).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await onScreen(page, 'map')).toBe(true);
    expect(await onScreen(page, 'orders')).toBe(true);
  };
  await expect.poll(() => pageScroll(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'artifacts/phone-start.png' });
  const start = orders.locator('.choices button').first();
  await start.click();
  await decide(orders.locator('.choices button.primary').first());
  for (let i = 0; i < 8; i++) {
    const phase = await page.getByTestId('phase').textContent();
    if (phase === 'Movement') break;
    const split = orders.getByRole('button', { name: /^Split/ }).first();
    await decide((await split.count()) ? split : page.getByTestId('end-phase'));
  }
  await expect(page.getByTestId('phase')).toHaveText('Movement');
  const unit = orders.locator('[data-testid^="move-"]').first();
  await unit.click();
  await page.screenshot({ path: 'artifacts/phone-destinations.png' });
  expect(await onScreen(page, 'map')).toBe(true);
  await decide(orders.locator('[data-testid^="dest-"]').first());
  await decide(page.getByTestId('end-phase'));
  await page.screenshot({ path: 'artifacts/phone-after-movement.png' });
  await ctx.close();
});
