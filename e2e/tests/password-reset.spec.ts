/**
 * A player who forgot their password: they signed up with an e-mail address and confirmed it from
 * the mailed link; later, logged out, they ask for a reset link from the log-in page, open it from
 * the mail (a real SMTP server on this machine receives it), choose a new password and log in.
 */
import { expect, test } from '@playwright/test';
import { waitForMail } from '../mailbox.ts';

test('a player resets a forgotten password from the e-mailed link and logs in', async ({ page }) => {
  const name = `fg_${Date.now().toString(36).slice(-6)}`;
  const email = `${name}@example.org`;
  await page.goto('/#/signup');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password').fill('first password 1');
  await page.getByLabel('E-mail (optional)').fill(email);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByTestId('account-name')).toHaveText(name);

  // The confirmation link, from the mail.
  const confirm = await waitForMail(email, /Confirm your e-mail address/);
  const verifyLink = confirm.links.find((l) => l.includes('/#/verify/'));
  expect(verifyLink).toBeTruthy();
  await page.goto(verifyLink as string);
  await expect(page.getByTestId('verify-done')).toContainText(`${email} is confirmed`);
  await page.getByRole('link', { name: 'Choose what is mailed to you' }).click();
  await expect(page.getByTestId('mail-state')).toContainText(`Mail goes to ${email} (confirmed)`);
  await page.screenshot({ path: 'artifacts/account-mail.png', fullPage: true });

  await page.getByRole('button', { name: 'Log out' }).click();
  // Logged out (the header offers to log in), then to the log-in page and its "Forgot password?".
  await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/#\/forgot$/);
  await page.getByLabel('Name or e-mail address').fill(name);
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByTestId('forgot-sent')).toContainText('If an account matches');
  await page.screenshot({ path: 'artifacts/forgot-sent.png' });

  const reset = await waitForMail(email, /Set a new BKE Online password/);
  expect(reset.text).toContain(`Hello ${name},`);
  const resetLink = reset.links.find((l) => l.includes('/#/reset/'));
  expect(resetLink).toBeTruthy();
  await page.goto(resetLink as string);
  await page.getByLabel('New password').fill('second password 2');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByTestId('reset-done')).toContainText(`The password of ${name} is changed`);
  await page.screenshot({ path: 'artifacts/reset-done.png' });

  // The link works once.
  await page.goto('/#/');
  await page.goto(resetLink as string);
  await page.getByLabel('New password').fill('third password 3');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByRole('alert')).toHaveText(/used already/);

  // The old password no longer opens the account; the new one does.
  await page.goto('/#/login');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password').fill('first password 1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Password').fill('second password 2');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('account-name')).toHaveText(name);
  await waitForMail(email, /password was changed/);
});
