/**
 * A first-time player opens the create form: the bots' level starts at the gentlest, and every
 * level is shown with its sentence on how it plays, as the engine words it, and its measured rating
 * (every level has one in the committed src/bot/ratings.json). Screenshot in
 * e2e/artifacts/bot-levels-create.png.
 */
import { BOT_LEVEL_TEXT, BOT_LEVELS, GENTLEST_BOT_LEVEL } from '@bke/protocol';
import { expect, test } from '@playwright/test';

const stamp = Date.now().toString(36).slice(-5);

test("a first-time player's create form starts at the gentlest bots and says how each level plays", async ({
  page,
}) => {
  await page.goto('/#/signup');
  await page.getByLabel('Name').fill(`first_${stamp}`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByTestId('account-name')).toHaveText(`first_${stamp}`);

  await page.getByLabel('Bots to play with').selectOption('3');
  await expect(page.getByLabel('Bot level')).toHaveValue(GENTLEST_BOT_LEVEL);
  const levels = page.getByTestId('bot-levels');
  for (const level of BOT_LEVELS) {
    const row = levels.getByTestId(`bot-level-${level}`);
    await expect(row.locator('dt')).toContainText(BOT_LEVEL_TEXT[level].name);
    // The arena's measured rating, where the committed ratings have one for the level.
    await expect(row.getByTestId(`bot-rating-${level}`)).toHaveText(/^rated \d+$/);
    await expect(row.locator('dd')).toHaveText(BOT_LEVEL_TEXT[level].sentence);
  }
  await expect(levels.locator('.chosen dt')).toContainText(BOT_LEVEL_TEXT[GENTLEST_BOT_LEVEL].name);
  await page.getByTestId('bot-levels').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'artifacts/bot-levels-create.png', fullPage: true });
});
