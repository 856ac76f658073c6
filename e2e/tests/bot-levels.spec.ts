/**
 * A first-time player opens the create form: the bots' level starts at the gentlest, and every
 * level is shown with its sentence on how it plays, as the engine words it, and its measured rating
 * once the committed src/bot/ratings.json comes from at least 30 games. Screenshot in
 * e2e/artifacts/bot-levels-create.png.
 */
import { readFileSync } from 'node:fs';
import { BOT_LEVEL_TEXT, BOT_LEVELS, GENTLEST_BOT_LEVEL } from '@bke/protocol';
import { expect, test } from '@playwright/test';

const stamp = Date.now().toString(36).slice(-5);
const RATED =
  (
    JSON.parse(
      readFileSync(new URL('../../packages/engine/src/bot/ratings.json', import.meta.url), 'utf8'),
    ) as {
      games: number;
    }
  ).games >= 30;

test("a first-time player's create form starts at the gentlest bots and says how each level plays", async ({
  page,
}) => {
  await page.goto('/#/signup');
  await page.getByLabel('Name', { exact: true }).fill(`first_${stamp}`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByTestId('account-name')).toHaveText(`first_${stamp}`);

  await page.getByLabel('Bots to play with').selectOption('3');
  await expect(page.getByLabel('Bot level')).toHaveValue(GENTLEST_BOT_LEVEL);
  const levels = page.getByTestId('bot-levels');
  for (const level of BOT_LEVELS) {
    const row = levels.getByTestId(`bot-level-${level}`);
    await expect(row.locator('dt')).toContainText(BOT_LEVEL_TEXT[level].name);
    // The arena's measured rating, once the committed ratings come from enough games to order levels.
    if (RATED) await expect(row.getByTestId(`bot-rating-${level}`)).toHaveText(/^rated \d+$/);
    else await expect(row.getByTestId(`bot-rating-${level}`)).toHaveCount(0);
    await expect(row.locator('dd')).toHaveText(BOT_LEVEL_TEXT[level].sentence);
  }
  await expect(levels.locator('.chosen dt')).toContainText(BOT_LEVEL_TEXT[GENTLEST_BOT_LEVEL].name);
  await page.getByTestId('bot-levels').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'artifacts/bot-levels-create.png', fullPage: true });
});
