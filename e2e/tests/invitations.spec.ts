/**
 * A world by invitation, in the browser: its creator makes it and is shown its link, a friend
 * opens the link (signing up on the way) and takes a seat; a stranger who opens the world's page
 * without the link is refused with words, and the world is not in the stranger's lobby. Once the
 * creator revokes the link, it lets nobody else in.
 */
import { expect, test } from '@playwright/test';
import { check } from '../axe.ts';
import { enter } from '../people.ts';

test('a friend joins an invitation-only world by its link; a stranger is refused', async ({ browser }) => {
  const stamp = Date.now().toString(36).slice(-5);
  const worldName = `Friends only ${stamp}`;
  const host = await enter(browser, 'signup', `host_${stamp}`);
  await host.page.getByLabel('Name', { exact: true }).fill(worldName);
  await host.page.getByTestId('access-invitation').check();
  await check(host.page, 'create-invitation');
  await host.page.getByRole('button', { name: 'Create world' }).click();
  await expect(host.page).toHaveURL(/#\/world\//);
  const worldUrl = host.page.url();
  await host.page.getByRole('tab', { name: 'Players' }).click();
  const linkBox = host.page.getByTestId('invite-link');
  await expect(linkBox).toHaveValue(/#\/invite\/[A-Za-z0-9_-]{43}$/);
  const link = await linkBox.inputValue();
  await check(host.page, 'world-invite-panel');

  // The friend opens the link before having an account, signs up, and comes back to it.
  const ctx = await browser.newContext();
  const friend = await ctx.newPage();
  await friend.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(friend.getByTestId('invite-signup')).toBeVisible();
  await friend.getByTestId('invite-signup').click();
  await friend.getByLabel('Name', { exact: true }).fill(`friend_${stamp}`);
  await friend.getByLabel('Password').fill('correct horse battery');
  await friend.getByRole('button', { name: 'Sign up' }).click();
  await expect(friend.getByTestId('invite-world')).toContainText(worldName, { timeout: 60_000 });
  await check(friend, 'invite-accept');
  await friend.getByTestId('invite-join').click();
  await expect(friend).toHaveURL(worldUrl);
  await expect(friend.getByTestId('watching')).toBeHidden();
  await friend.screenshot({ path: 'artifacts/invite-friend-seated.png' });

  // A stranger: not in their lobby, and the world's page says why it cannot be opened.
  const stranger = await enter(browser, 'signup', `stranger_${stamp}`);
  const listed = stranger.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/worlds');
  await stranger.page.reload();
  expect(await (await listed).text()).not.toContain(worldName);
  await expect(stranger.page.getByTestId('world-row').filter({ hasText: worldName })).toHaveCount(0);
  await stranger.page.goto(worldUrl.replace(/^https?:\/\/[^/]+/, ''));
  await expect(stranger.page.getByTestId('world-missing')).toContainText('invited');
  await check(stranger.page, 'world-refused');

  // Revoked: the link now opens nothing, in words.
  await host.page.getByTestId('invite-revoke').click();
  await expect(host.page.getByTestId('invite-link')).toHaveCount(0);
  await stranger.page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(stranger.page.getByTestId('invite-error')).toContainText('revoked');
  await stranger.page.screenshot({ path: 'artifacts/invite-revoked.png' });
});
