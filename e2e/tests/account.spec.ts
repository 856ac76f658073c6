/**
 * A player sets the webhook that tells them it is their move while away, from the account page,
 * and checks it with a test message (a receiver on this machine stands in for a chat channel).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { check } from '../axe.ts';

test('a player sets a webhook for "your move" and the test message arrives', async ({ page }) => {
  const got: { content: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      got.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/channel`;
  try {
    const name = `odo_${Date.now().toString(36).slice(-5)}`;
    await page.goto('/#/signup');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByTestId('account-name').click();
    await expect(page).toHaveURL(/#\/account$/);
    await expect(page.getByRole('heading', { name: 'When it is your move' })).toBeVisible();
    // Nothing saved yet: nothing to test.
    await expect(page.getByTestId('webhook-test')).toBeDisabled();
    await page.getByLabel('Webhook address').fill('ftp://example.org/channel');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toContainText('not filled in correctly');
    await page.getByLabel('Webhook address').fill(hook);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('account-message')).toContainText('Saved');
    await page.getByTestId('webhook-test').click();
    await expect(page.getByTestId('account-message')).toHaveText('The test message was delivered.');
    expect(got.map((m) => m.content)).toEqual([`BKE Online will post here when a world waits for ${name}.`]);
    await page.screenshot({ path: 'artifacts/account-webhook.png' });
    // After a reload the page shows what is saved.
    await page.reload();
    await expect(page.getByLabel('Webhook address')).toHaveValue(hook);
  } finally {
    receiver.close();
  }
});

test('changing the password signs the account out of every other browser at once', async ({ browser }) => {
  const name = `pw_${Date.now().toString(36).slice(-5)}`;
  const mine = await (await browser.newContext()).newPage();
  const other = await (await browser.newContext()).newPage();
  await mine.goto('/#/signup');
  await mine.getByLabel('Name', { exact: true }).fill(name);
  await mine.getByLabel('Password').fill('correct horse battery');
  await mine.getByRole('button', { name: 'Sign up' }).click();
  await expect(mine.getByTestId('account-name')).toHaveText(name);
  // A second browser (a forgotten one, or a stolen session) is signed in too and connected.
  await other.goto('/#/login');
  await other.getByLabel('Name', { exact: true }).fill(name);
  await other.getByLabel('Password').fill('correct horse battery');
  await other.getByRole('button', { name: 'Log in' }).click();
  await expect(other.getByTestId('account-name')).toHaveText(name);
  await expect(other.getByTestId('connection-status')).toHaveText(/Connected/);

  await mine.getByTestId('account-name').click();
  await mine.getByLabel('Current password').fill('correct horse battery');
  await mine.getByLabel('New password').fill('staple battery horse');
  await mine.getByRole('button', { name: 'Change password' }).click();
  await expect(mine.getByTestId('password-message')).toContainText('signed out');

  // The other browser is told without a reload: its connection ends and it is signed out.
  await expect(other.getByTestId('account-name')).toHaveCount(0, { timeout: 15_000 });
  await expect(other.getByTestId('signed-out-elsewhere')).toBeVisible();
  await expect(other.getByTestId('connection-status')).toHaveText(/Connected/);
  await other.screenshot({ path: 'artifacts/account-signed-out-elsewhere.png' });
  // This browser stays signed in.
  await mine.reload();
  await expect(mine.getByTestId('account-name')).toHaveText(name);
});

test("the account takes the browser's time zone at sign-up, and the account page changes it", async ({
  browser,
}) => {
  // A browser in New York: the mail's deadlines are to be in its time, not in UTC.
  const ctx = await browser.newContext({ timezoneId: 'America/New_York' });
  const page = await ctx.newPage();
  const name = `nyc_${Date.now().toString(36).slice(-5)}`;
  await page.goto('/#/signup');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByTestId('account-name').click();
  const zone = page.getByLabel('Time zone (deadlines in mail are shown in it)');
  await expect(zone).toHaveValue('America/New_York');
  // The browser's zone is the account's: nothing else to offer.
  await expect(page.getByTestId('browser-zone')).toHaveCount(0);
  await page.screenshot({ path: 'artifacts/account-time-zone.png', fullPage: true });

  // Spending the winter in Lisbon: the account's zone changes, and stays changed after a reload.
  await zone.selectOption('Europe/Lisbon');
  await page.getByRole('button', { name: 'Update mail settings' }).click();
  await expect(page.getByTestId('mail-message')).toHaveText('Saved.');
  await page.reload();
  await expect(zone).toHaveValue('Europe/Lisbon');
  // This browser is still in New York: the page says so and offers it, without pretending it is saved.
  await expect(page.getByTestId('browser-zone')).toContainText('This browser is in America/New_York.');
  await page.screenshot({ path: 'artifacts/account-time-zone-changed.png', fullPage: true });
  await check(page, 'account-time-zone');
  await page.getByRole('button', { name: 'Use America/New_York' }).click();
  await expect(zone).toHaveValue('America/New_York');
  await ctx.close();
});
