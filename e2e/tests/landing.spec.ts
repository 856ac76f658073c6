/**
 * A visitor's first page: a world in play drawn on the real map, two sentences on the game, "Play
 * now" — a name, a password and one click to a seat in a new world against the gentlest bots — and
 * the worlds to watch. The page shows at once: no "Connecting to the server…" bar on its first
 * paint. Screenshots land in e2e/artifacts/landing-*.png.
 */
import { CSRF_HEADER } from '@bke/protocol';
import { expect, type Page, test } from '@playwright/test';
import { check } from '../axe.ts';

const BASE = process.env.E2E_BASE_URL ?? '';
const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/landing-${name}.png` });

test('a visitor sees a world in play and is seated in a new world in one click', async ({ browser }) => {
  test.setTimeout(180_000);
  // A world in play: a player and two bots, its first turn begun.
  const host = await browser.newContext({ baseURL: BASE });
  const headers = { origin: BASE, [CSRF_HEADER]: '1' };
  const signup = await host.request.post('/api/auth/signup', {
    data: { username: `host_${stamp}`, password: 'correct horse battery' },
    headers,
  });
  expect(signup.ok()).toBe(true);
  const shownName = `Shown ${stamp}`;
  const made = await host.request.post('/api/worlds', {
    data: {
      name: shownName,
      deadline: { mode: 'live', minutesPerPhase: 60 },
      join: true,
      bots: ['easy', 'easy'],
    },
    headers,
  });
  expect(made.ok()).toBe(true);
  await host.close();

  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto('/');
  // The first paint is the page itself, not a connection bar.
  await expect(page.getByTestId('welcome')).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toBeHidden();
  await expect(page.getByTestId('welcome-about')).toContainText('barbarian horde');
  // The world in play, drawn on the map with its counters, named under the picture.
  const caption = page.getByTestId('welcome-caption');
  await expect(caption).toContainText(/, turn \d+, as it stands now/, { timeout: 20_000 });
  await expect(page.getByTestId('welcome-map').locator('g.counter').first()).toBeVisible();
  // The worlds in play, to watch.
  await expect(
    page.getByTestId('world-row').filter({ hasText: shownName }).getByRole('link', { name: 'Watch' }),
  ).toBeVisible();
  await page.waitForTimeout(500);
  await shot(page, 'visitor');
  await check(page, 'landing');

  // Play now: a name, a password, one click; the new world's page, with the horde to place.
  await page.getByLabel('Your name').fill(`first_${stamp}`);
  await page.getByLabel('A password').fill('correct horse battery');
  await page.getByTestId('play-now').click();
  await expect(page).toHaveURL(/#\/world\//, { timeout: 60_000 });
  await expect(page.getByTestId('account-name')).toHaveText(`first_${stamp}`);
  await expect(page.getByTestId('waiting')).toContainText('Your move', { timeout: 30_000 });
  // The start positions to choose from, on the orders panel.
  await expect(
    page
      .getByTestId('orders')
      .getByRole('button', { name: /^[A-Z]+ \d$/ })
      .first(),
  ).toBeVisible();
  await page.waitForTimeout(300);
  await shot(page, 'seated');
  const worldUrl = page.url();
  // Its seats: the newcomer and two of the gentlest bots.
  await page.goto('/#/');
  const row = page.getByTestId('world-row').filter({ hasText: `first_${stamp}'s first world` });
  await expect(row).toContainText('3/6');
  await expect(row.locator('.bot-tag')).toHaveCount(2);
  // With a world of their own, the lobby no longer shows them the welcome.
  await expect(page.getByTestId('welcome')).toHaveCount(0);
  await page.goto(worldUrl);
  await expect(page.getByTestId('waiting')).toContainText('Your move', { timeout: 30_000 });
  await ctx.close();
});
