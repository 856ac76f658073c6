/**
 * An admin pauses a world from the moderation area and a player, in
 * another browser context, sees it paused with the reason; the admin resumes and the player sees
 * it running again. The admin account comes from BKE_ADMIN_USERNAME/PASSWORD given to the server.
 */
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, ADMIN_PASSWORD, enter, moderate, worldOfTwo } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/moderation-${name}.png` });

test('an admin pauses a world and a player sees it paused', async ({ browser }) => {
  const player = await enter(browser, 'signup', `gaiseric_${stamp}`);
  const worldName = `Paused ${stamp}`;
  await player.page.getByLabel('Name', { exact: true }).fill(worldName);
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

test('a removed player is offered no Join; closing a world asks first, and the world then says it is closed', async ({
  browser,
}) => {
  const worldName = `Closing ${stamp}`;
  const { a, b } = await worldOfTwo(browser, `theodoric_${stamp}`, `amalasuntha_${stamp}`, worldName);
  const admin = await moderate(browser, worldName);
  await admin.page.getByTestId('mod-reason').fill('Spamming the chat');
  await admin.page
    .getByRole('row')
    .filter({ hasText: `amalasuntha_${stamp}` })
    .getByRole('button', { name: 'Remove…' })
    .click();
  await admin.page
    .getByTestId('confirm-dialog')
    .getByRole('button', { name: `Remove amalasuntha_${stamp}` })
    .click();
  await expect(admin.page.getByTestId('mod-message')).toContainText('Done');

  // Back in the lobby (after a reload, so nothing of the live notice helps): no Join, and why.
  await b.page.goto('/#/');
  const row = b.page.getByTestId('world-row').filter({ hasText: worldName });
  await expect(row.getByTestId('removed-from')).toHaveText('Removed by a moderator');
  await expect(row.getByRole('button', { name: 'Join' })).toHaveCount(0);
  await b.page.getByTestId('filter-open').check();
  await expect(b.page.getByTestId('world-row').filter({ hasText: worldName })).toHaveCount(0);
  await shot(b.page, 'removed-lobby');
  // Its page, reloaded, says so too instead of offering a seat.
  await b.page.goto(a.page.url());
  await expect(b.page.getByTestId('removed-here')).toBeVisible();
  await expect(b.page.getByTestId('join-world')).toHaveCount(0);

  // Closing asks first and says what it does; Cancel leaves the world running.
  await admin.page.getByTestId('mod-reason').fill('The season is over');
  await admin.page.getByRole('button', { name: 'Close the world…' }).click();
  const dialog = admin.page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('cannot be opened again');
  await shot(admin.page, 'close-asks');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(admin.page.getByTestId('mod-world-status')).toContainText('running');
  await admin.page.getByRole('button', { name: 'Close the world…' }).click();
  await dialog.getByRole('button', { name: 'Close the world' }).click();
  await expect(admin.page.getByTestId('mod-message')).toContainText('Done: closed');

  // The player's page: closed, and nobody is said to be waited for.
  await expect(a.page.getByTestId('world-paused')).toHaveText('World closed');
  await expect(a.page.getByTestId('waiting')).toHaveText('Closed: nobody plays on');
  await expect(a.page.getByTestId('orders-halted')).toContainText('This world is closed');
  await expect(a.page.getByTestId('no-orders')).not.toContainText('waiting for');
  await shot(a.page, 'closed-world');
  for (const c of [a.ctx, b.ctx, admin.ctx]) await c.close();
});
