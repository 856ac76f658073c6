/**
 * A turn played with the keyboard alone: from the page's top, the skip links reach the orders in a
 * few key presses; after every order the focus is on the next choice (never back at the top of the
 * page); the "Before you commit" confirmation takes the focus and keeps it until answered. The
 * player takes the choice the page puts the focus on each time (Enter), opens a unit's
 * destinations with Enter and Tab, and plays from the start position to the end of movement: the
 * key presses may not exceed two per decision plus the few to get there. axe-core checks each state
 * on the way, the confirmation and the legend open included.
 */
import { expect, type Page, test } from '@playwright/test';
import { check } from '../axe.ts';
import { enter } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);

/** What has the focus: its test id or text, and whether it is inside the orders panel or the confirmation. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName ?? '',
      text: (el?.textContent ?? '').trim(),
      testid: el?.dataset.testid ?? '',
      inOrders: !!el?.closest('[data-testid="orders"]'),
      inConfirm: !!el?.closest('[data-testid="confirm-cost"]'),
      onBody: el === document.body || el === null,
    };
  });

test('a keyboard-only turn: the focus follows the choices, the confirmation keeps it', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { ctx, page } = await enter(browser, 'signup', `keys_${stamp}`);
  await page.getByLabel('Name', { exact: true }).fill(`Keys ${stamp}`);
  await page.getByRole('radio', { name: /Live/ }).check();
  await page.getByLabel('Minutes per phase', { exact: true }).fill('30');
  await page.getByRole('button', { name: 'Create world' }).click();
  await expect(page.getByTestId('waiting')).toContainText('Your move', { timeout: 30_000 });
  await page.reload();
  await expect(page.getByTestId('waiting')).toContainText('Your move', { timeout: 30_000 });
  await expect(page.getByTestId('to-orders')).toBeAttached();

  let presses = 0;
  const press = async (key: string) => {
    presses++;
    await page.keyboard.press(key);
  };
  // From the top of the page: the site's skip link, then the world page's own, straight to a choice.
  await press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await press('Enter');
  await press('Tab');
  await expect(page.getByTestId('to-orders')).toBeFocused();
  await check(page, 'keyboard-skip-link');
  await press('Enter');
  await expect.poll(async () => (await focused(page)).inOrders).toBe(true);
  const reach = presses;

  let decisions = 0;
  let confirmations = 0;
  let sawMovement = false;
  const version = () => page.getByTestId('banner').getAttribute('data-version');
  for (let i = 0; i < 40; i++) {
    const phase = await page.getByTestId('phase').textContent();
    if (phase === 'Movement' && !sawMovement) {
      // The phase's first choice is a unit to move, not the "Done" used a moment ago.
      sawMovement = true;
      await expect.poll(async () => (await focused(page)).testid).toMatch(/^move-/);
    } else if (phase !== 'Movement' && sawMovement) break; // movement ended: the decisions before combat are made
    const f = await focused(page);
    expect(f.onBody, `the focus fell back to the page after ${decisions} decisions`).toBe(false);
    const before = await version();
    if (f.testid.startsWith('move-') || /^[A-Z]+ \d+$/.test(f.text)) {
      // A unit to move, or a start position: Enter opens its destinations, Tab reaches the first.
      await press('Enter');
      await press('Tab');
    }
    await press('Enter');
    if (await page.getByTestId('confirm-cost').isVisible()) {
      // The confirmation has the focus, on the choice that loses nothing; Tab stays inside it.
      confirmations++;
      await expect(page.getByTestId('confirm-cancel')).toBeFocused();
      if (confirmations === 1) await check(page, 'keyboard-confirm');
      await press('Tab');
      await expect(page.getByTestId('confirm-anyway')).toBeFocused();
      await press('Tab');
      await expect(page.getByTestId('confirm-cancel')).toBeFocused();
      await press('Shift+Tab');
      await expect(page.getByTestId('confirm-anyway')).toBeFocused();
      await press('Enter');
    }
    await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', before ?? '', {
      timeout: 30_000,
    });
    decisions++;
    // The focus lands on the next choice once the new legal orders are drawn.
    await expect
      .poll(async () => {
        const g = await focused(page);
        return g.inOrders || !(await page.getByTestId('waiting').textContent())?.includes('Your move');
      })
      .toBe(true);
    if (decisions === 1) await check(page, 'keyboard-after-first-order');
  }
  expect(sawMovement).toBe(true);
  expect(decisions).toBeGreaterThanOrEqual(4);
  // Every decision takes one key press, two more to open a unit or a start position, and a
  // confirmation four (two of them only to show that the focus stays in it).
  expect(presses - reach).toBeLessThanOrEqual(decisions * 3 + confirmations * 4);
  test.info().annotations.push({
    type: 'key presses',
    description: `${reach} to reach the orders, ${presses - reach} for ${decisions} decisions (${confirmations} confirmed)`,
  });
  await page.screenshot({ path: 'artifacts/keyboard-turn.png' });

  // The legend open: its scroll region takes the focus, so keys scroll it.
  await page.getByTestId('legend-toggle').locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Legend of the map' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('region', { name: 'Legend of the map' })).toBeFocused();
  await check(page, 'keyboard-legend-open');
  await ctx.close();
});
