/**
 * axe-core, the maintained accessibility checker, on the pages people use most: the lobby, the
 * world page on each of its tabs, and each tab of the moderation area. No serious or critical
 * violation may be found; a failure lists each rule with the elements it found.
 */
import { expect, test } from '@playwright/test';
import { check, violations } from '../axe.ts';
import { enter, moderate, worldOfTwo } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);
test.describe.configure({ timeout: 240_000 });

test('the lobby, the world page on each tab and the moderation area have no serious violation', async ({
  browser,
}) => {
  const worldName = `Access ${stamp}`;
  const { a, b } = await worldOfTwo(browser, `ambrose_${stamp}`, `benedict_${stamp}`, worldName);
  // Something said in chat, so the chat tab and the moderators' list have a line to check.
  await b.page.getByTestId('chat-tab').click();
  await b.page.getByLabel('Message').fill('Greetings from the east');
  await b.page.getByRole('button', { name: 'Send' }).click();

  await a.page.goto('/#/');
  await expect(a.page.getByTestId('world-row').filter({ hasText: worldName })).toBeVisible();
  await check(a.page, 'lobby');

  await a.page.getByTestId('world-row').filter({ hasText: worldName }).getByRole('link').first().click();
  await expect(a.page.getByTestId('banner')).toBeVisible();
  const panels = a.page.getByRole('tablist', { name: 'World panels' });
  for (const name of ['Orders', 'History', 'Replay', 'Scores', 'Chat', 'Players']) {
    const tab = panels.getByRole('tab', { name: new RegExp(`^${name}`) });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(a.page.getByRole('tabpanel').first()).toBeVisible();
    await check(a.page, `world-${name.toLowerCase()}`);
    if (name === 'History')
      for (const view of ['Last turn', 'Chronicle']) {
        await a.page.getByRole('tablist', { name: 'History' }).getByRole('tab', { name: view }).click();
        await check(a.page, `world-history-${view.toLowerCase().replace(' ', '-')}`);
      }
  }

  const admin = await moderate(browser, worldName);
  await expect(admin.page.getByTestId('mod-world-status')).toBeVisible();
  await check(admin.page, 'moderation-worlds');
  // The confirmation a removal asks for, open over the page.
  await admin.page.getByTestId('mod-reason').fill('Checking the dialog');
  await admin.page.getByRole('button', { name: 'Remove…' }).first().click();
  await expect(admin.page.getByTestId('confirm-dialog')).toBeVisible();
  await check(admin.page, 'moderation-confirm');
  await admin.page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(admin.page.getByTestId('confirm-dialog')).toHaveCount(0);
  for (const tab of ['Reports', 'Accounts', 'Audit log']) {
    await admin.page.getByRole('tab', { name: tab }).click();
    await expect(admin.page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    if (tab === 'Accounts') {
      await admin.page.getByLabel('Account name starts with').fill(`ambrose_${stamp}`);
      await admin.page.getByRole('button', { name: 'Search' }).click();
      await expect(admin.page.getByTestId('mod-user')).toHaveCount(1);
    }
    await check(admin.page, `moderation-${tab.toLowerCase().replace(' ', '-')}`);
  }
  for (const c of [a.ctx, b.ctx, admin.ctx]) await c.close();
});

test('the sign-up and log-in forms and a newcomer’s lobby have no serious violation', async ({ browser }) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  for (const form of ['signup', 'login']) {
    await page.goto(`/#/${form}`);
    await expect(page.getByLabel('Password')).toBeVisible();
    await check(page, form);
  }
  await ctx.close();
  const p = await enter(browser, 'signup', `cassian_${stamp}`);
  await check(p.page, 'lobby-newcomer');
  await p.ctx.close();
});

test('the check itself fails on a page with a serious violation', async ({ page }) => {
  // A button without a name and an image without a text: critical by axe's own ranking.
  await page.setContent('<main><h1>Bad</h1><button></button><img src="data:,"></main>');
  const found = await violations(page, 'known-bad');
  expect(found.map((f) => f.split(' ')[0])).toEqual(expect.arrayContaining(['button-name', 'image-alt']));
});
