/**
 * A newcomer alone on the site creates a world with five bots from the lobby and plays at once:
 * the first turn is theirs, the bots enter and play theirs without anyone waiting, and the
 * players list, the standings, the chronicle and the lobby show who is a bot. Screenshots in
 * e2e/artifacts/bots-*.png.
 */
import { expect, type Page, test } from '@playwright/test';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/bots-${name}.png` });

test('a newcomer creates a world with five strong bots and plays their first turns at once', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('/#/signup');
  await page.getByLabel('Name', { exact: true }).fill(`newcomer_${stamp}`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByTestId('account-name')).toHaveText(`newcomer_${stamp}`);

  await page.getByLabel('Name', { exact: true }).fill(`With bots ${stamp}`);
  await page.getByRole('radio', { name: /Live/ }).check();
  await page.getByLabel('Minutes per phase', { exact: true }).fill('30');
  await expect(page.getByLabel('Take a seat myself')).toBeChecked();
  await page.getByLabel('Bots to play with').selectOption('5');
  // A first world starts at the gentlest level; this newcomer asks for strong bots.
  await expect(page.getByLabel('Bot level')).toHaveValue('novice');
  await page.getByLabel('Bot level').selectOption('strong');
  await shot(page, 'lobby-create');
  await page.getByRole('button', { name: 'Create world' }).click();
  await expect(page).toHaveURL(/#\/world\//);

  // The newcomer's seat came first: the first turn is theirs to play at once.
  await expect(page.getByRole('heading', { name: 'Start position' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Unrolling the map…')).toHaveCount(0, { timeout: 30_000 });
  await shot(page, 'first-turn');
  let started = false;
  for (let i = 0; i < 60; i++) {
    const turn = Number(await page.getByTestId('turn').textContent());
    if (turn >= 3) break;
    const start = page.getByRole('heading', { name: 'Start position' });
    const end = page.getByTestId('end-phase').first();
    if (await start.isVisible()) {
      await page.locator('.choices button').first().click();
      await page.locator('.choices button.primary').first().click();
      started = true;
    } else if (await end.isVisible()) {
      if (await end.isEnabled()) await end.click();
    }
    await page.waitForTimeout(300);
  }
  expect(started).toBe(true);
  // The bots played their parts of turns 2 and 3 without holding anything up.
  await expect
    .poll(async () => Number(await page.getByTestId('turn').textContent()), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(3);
  await shot(page, 'turn-3');

  await page.getByRole('tab', { name: 'Players' }).click();
  const players = page.getByTestId('players');
  await expect(players.locator('li')).toHaveCount(6);
  for (const p of ['p2', 'p3', 'p4', 'p5', 'p6'])
    await expect(page.getByTestId(`bot-${p}`)).toHaveText('strong bot');
  await expect(page.getByTestId('bot-p1')).toHaveCount(0);
  await shot(page, 'players');

  // The standings mark the bots as bots, and so does the chronicle wherever it names one.
  await page.getByRole('tab', { name: 'Scores' }).click();
  await expect(page.getByTestId('standings').locator('tbody tr')).toHaveCount(6);
  for (const p of ['p2', 'p3', 'p4', 'p5', 'p6'])
    await expect(page.getByTestId(`standing-bot-${p}`)).toHaveText('bot');
  await expect(page.getByTestId('standing-bot-p1')).toHaveCount(0);
  await shot(page, 'standings');
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByRole('tab', { name: 'Chronicle' }).click();
  const story = page.getByTestId('chronicle').locator('li');
  await expect
    .poll(() => story.filter({ hasText: /Strong bot \d \(bot\)/ }).count(), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(5);
  await expect(story.filter({ hasText: `newcomer_${stamp}` })).not.toHaveCount(0);
  await expect(story.filter({ hasText: `newcomer_${stamp} (bot)` })).toHaveCount(0);
  await shot(page, 'chronicle');

  // Back in the lobby the world lists its bots as bots.
  await page.goto('/#/');
  const row = page.getByTestId('world-row').filter({ hasText: `With bots ${stamp}` });
  await expect(row.locator('.bot-tag')).toHaveCount(5);
  await shot(page, 'lobby-list');
});
