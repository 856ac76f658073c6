/**
 * Where a player stands, in the browser: the leaderboard of each pool explains in words who is not
 * listed yet and why; a profile shows its stats and ratings; hiding it on the account page keeps it
 * from everyone else (they are told so) while its owner still opens it.
 */
import { expect, test } from '@playwright/test';
import { check } from '../axe.ts';
import { enter } from '../people.ts';

test('the leaderboard explains provisional ratings; a hidden profile opens for its owner only', async ({
  browser,
}) => {
  const stamp = Date.now().toString(36).slice(-5);
  const shy = await enter(browser, 'signup', `shy_${stamp}`);

  await shy.page.getByRole('link', { name: 'Leaderboard' }).click();
  await expect(shy.page).toHaveURL(/#\/leaderboard$/);
  await expect(shy.page.getByRole('heading', { name: 'Leaderboard' })).toBeVisible();
  await expect(shy.page.getByRole('link', { name: 'All worlds' })).toHaveAttribute('aria-current', 'page');
  await expect(shy.page.getByTestId('leaderboard-provisional')).toContainText(
    'provisional until it has taken in 5 results',
  );
  await check(shy.page, 'leaderboard');
  await shy.page.getByRole('link', { name: 'Advanced victory' }).click();
  await expect(shy.page).toHaveURL(/#\/leaderboard\/advanced$/);
  await expect(shy.page.getByText('victory points per turn played (14.3.2)')).toBeVisible();

  // Her own profile: the stats of an account that has played nothing yet, in words.
  await shy.page.goto(`/#/player/shy_${stamp}`);
  const stats = shy.page.getByTestId('profile-stats');
  await expect(stats.getByText('Worlds', { exact: true })).toBeVisible();
  await expect(stats.getByText('Best cycle')).toBeVisible();
  await expect(shy.page.getByText('No rated result yet')).toBeVisible();
  await expect(shy.page.getByText('This is your profile')).toBeVisible();
  await check(shy.page, 'profile-new');

  // Hidden on the account page.
  await shy.page.getByRole('link', { name: 'your account page' }).click();
  await shy.page.getByLabel('Hide my profile').check();
  await expect(shy.page.getByTestId('profile-privacy-message')).toContainText('only you can open it');
  await shy.page.reload();
  await expect(shy.page.getByLabel('Hide my profile')).toBeChecked();
  await check(shy.page, 'account-profile-hidden');

  const other = await enter(browser, 'signup', `nosy_${stamp}`);
  await other.page.goto(`/#/player/shy_${stamp}`);
  await expect(other.page.getByRole('alert')).toHaveText('This player keeps their profile to themselves.');
  await expect(other.page.getByTestId('profile-stats')).toHaveCount(0);
  await other.page.screenshot({ path: 'artifacts/standing-profile-hidden.png' });

  await shy.page.goto(`/#/player/shy_${stamp}`);
  await expect(shy.page.getByTestId('profile-stats')).toBeVisible();

  // Shown again: the other player opens it.
  await shy.page.goto('/#/account');
  await shy.page.getByLabel('Hide my profile').uncheck();
  await expect(shy.page.getByTestId('profile-privacy-message')).toContainText('visible to everyone again');
  await other.page.reload();
  await expect(other.page.getByTestId('profile-stats')).toBeVisible();
});
