/**
 * An admin pauses a world from the moderation area and a player, in
 * another browser context, sees it paused with the reason; the admin resumes and the player sees
 * it running again. The admin account comes from BKE_ADMIN_USERNAME/PASSWORD given to the server.
 */
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, ADMIN_PASSWORD, enter, worldOfTwo } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/moderation-${name}.png` });

test('an admin pauses a world and a player sees it paused', async ({ browser }) => {
  const player = await enter(browser, 'signup', `gaiseric_${stamp}`);
  const worldName = `Paused ${stamp}`;
  await player.page.getByLabel('Name').fill(worldName);
  await player.page.getByRole('button', { name: 'Create world' }).click();
  await expect(player.page).toHaveURL(/#\/world\//);
  await expect(player.page.getByTestId('banner')).toBeVisible();
  await expect(player.page.getByTestId('banner').getByText('Paused by a moderator')).toHaveCount(0);

  const admin = await enter(browser, 'login', ADMIN, ADMIN_PASSWORD);
  await admin.page.goto('/#/moderation');
  await admin.page.getByTestId('mod-world').filter({ hasText: worldName }).click();
  await admin.page.getByTestId('mod-reason').fill('Server maintenance tonight');
  await admin.page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(admin.page.getByTestId('mod-message')).toHaveText(`Done: paused the world “${worldName}”.`);
  await shot(admin.page, 'admin-paused');

  await expect(player.page.getByTestId('banner').getByText('Paused by a moderator')).toBeVisible();
  await player.page.getByTestId('chat-tab').click();
  await expect(player.page.getByTestId('chat-messages')).toContainText('Server maintenance tonight');
  await shot(player.page, 'player-sees-pause');

  await admin.page.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(admin.page.getByTestId('mod-message')).toHaveText(`Done: resumed the world “${worldName}”.`);
  await expect(player.page.getByTestId('banner').getByText('Paused by a moderator')).toHaveCount(0);

  await admin.page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(admin.page.getByTestId('mod-audit')).toContainText(`paused the world “${worldName}”`);
  await expect(admin.page.getByTestId('mod-audit')).toContainText(`resumed the world “${worldName}”`);
  await shot(admin.page, 'audit');
  for (const c of [player.ctx, admin.ctx]) await c.close();
});

test('a player reports a chat message; a moderator deletes it and resolves the report', async ({
  browser,
}) => {
  const { a, b } = await worldOfTwo(
    browser,
    `radagaisus_${stamp}`,
    `stilicho_${stamp}`,
    `Reported ${stamp}`,
    'lobby',
  );
  await b.page.getByTestId('chat-tab').click();
  await b.page.getByLabel('Message').fill('You are all fools');
  await b.page.getByRole('button', { name: 'Send' }).click();

  await a.page.getByTestId('chat-tab').click();
  const line = a.page.getByTestId('chat-messages').locator('li').filter({ hasText: 'You are all fools' });
  await line.getByRole('button', { name: 'Report' }).click();
  await line.getByLabel('Why?').fill('Insulting everyone');
  await line.getByRole('button', { name: 'Send' }).click();
  await expect(line.getByRole('status')).toContainText('a moderator will look at it');
  await shot(a.page, 'reported');

  const admin = await enter(browser, 'login', ADMIN, ADMIN_PASSWORD);
  await admin.page.goto('/#/moderation');
  await admin.page.getByRole('tab', { name: 'Reports' }).click();
  const report = admin.page.getByTestId('mod-report').filter({ hasText: 'You are all fools' });
  await expect(report).toContainText('Insulting everyone');
  await admin.page.getByTestId('mod-reason').fill('Insults are not allowed');
  await report.getByRole('button', { name: 'Delete the message' }).click();
  await expect(report.locator('blockquote.deleted')).toHaveCount(1);
  await shot(admin.page, 'report-queue');
  await report.getByRole('button', { name: 'Resolve' }).click();
  await expect(admin.page.getByTestId('mod-report').filter({ hasText: 'You are all fools' })).toHaveCount(0);
  await admin.page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(admin.page.getByTestId('mod-audit')).toContainText('deleted a chat message');
  await expect(admin.page.getByTestId('mod-audit')).toContainText('resolved a report');
  for (const c of [a.ctx, b.ctx, admin.ctx]) await c.close();
});

test('a player reports another player from the Players tab; moderators see it queued', async ({
  browser,
}) => {
  const { a, b } = await worldOfTwo(
    browser,
    `alboin_${stamp}`,
    `clovis_${stamp}`,
    `Players ${stamp}`,
    'lobby',
  );
  await a.page.reload();
  await a.page.getByRole('tab', { name: 'Players' }).click();
  const row = a.page
    .getByTestId('players')
    .locator('li')
    .filter({ hasText: `clovis_${stamp}` });
  await expect(
    a.page
      .getByTestId('players')
      .locator('li')
      .filter({ hasText: `alboin_${stamp}` })
      .getByRole('button', { name: 'Report' }),
  ).toHaveCount(0);
  await row.getByRole('button', { name: 'Report' }).click();
  await row.getByLabel('Why?').fill('Threatens everyone in chat and in orders');
  await row.getByRole('button', { name: 'Send' }).click();
  await expect(row.getByRole('status')).toContainText('a moderator will look at it');

  const admin = await enter(browser, 'login', ADMIN, ADMIN_PASSWORD);
  await admin.page.goto('/#/moderation');
  await admin.page.getByRole('tab', { name: 'Reports' }).click();
  const report = admin.page.getByTestId('mod-report').filter({ hasText: 'Threatens everyone' });
  await expect(report).toContainText(`About clovis_${stamp}`);
  await expect(report).toContainText(`by alboin_${stamp}`);
  for (const c of [a.ctx, b.ctx, admin.ctx]) await c.close();
});

test('a plain player is refused the moderation area', async ({ browser }) => {
  const p = await enter(browser, 'signup', `odoacer_${stamp}`);
  await p.page.goto('/#/moderation');
  await expect(p.page.getByTestId('mod-forbidden')).toBeVisible();
  const r = await p.page.request.post('/api/moderation/users/0b7d9e1a-0000-4000-8000-000000000002/ban', {
    headers: { 'x-bke-csrf': '1' },
    data: { reason: 'no power here' },
  });
  expect(r.status()).toBe(403);
  await p.ctx.close();
});
