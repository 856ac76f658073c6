import { expect, test } from '@playwright/test';

test('the home page loads and its socket connects', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('BKE Online');
  await expect(page.getByRole('heading', { name: 'BKE Online' })).toBeVisible();
  await expect(page.getByTestId('connection-status')).toHaveText(/Connected/);
  await page.screenshot({ path: 'artifacts/foundation-connected.png', fullPage: true });
});
