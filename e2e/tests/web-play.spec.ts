/**
 * A whole game through the real server: two players sign up in two browser
 * contexts, one creates a world, both join, a third context watches, and they play turns
 * through the UI. A screenshot of each screen is saved in e2e/artifacts/.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/web-${name}.png` });

/**
 * A player's browser. It allows notifications, records those the page shows (`__notes`), and lets
 * the test put the page in the background (`__hidden`), which headless Chromium never does itself.
 */
async function signUp(browser: Browser, name: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ permissions: ['notifications'] });
  await ctx.addInitScript(() => {
    const w = window as unknown as { __notes: string[]; __hidden: boolean; Notification: unknown };
    w.__notes = [];
    w.__hidden = false;
    Object.defineProperty(Document.prototype, 'hidden', { get: () => w.__hidden, configurable: true });
    const Real = window.Notification;
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        w.__notes.push(title);
      }
    }
    w.Notification = Recorded;
  });
  const page = await ctx.newPage();
  await page.goto('/#/signup');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByTestId('account-name')).toHaveText(name);
  await expect(page.getByTestId('connection-status')).toHaveText(/Connected/);
  return { ctx, page };
}

test('two players and a spectator play turns of a world through the UI', async ({ browser }) => {
  // Three game turns, a reload and a network drop through the real server take about a minute.
  test.setTimeout(240_000);
  const a = await signUp(browser, `alaric_${stamp}`);
  await shot(a.page, 'lobby-empty');
  const worldName = `Twilight ${stamp}`;
  await a.page.getByLabel('Name', { exact: true }).fill(worldName);
  await a.page.getByRole('radio', { name: /Live/ }).check();
  await a.page.getByLabel('Minutes per phase', { exact: true }).fill('30');
  await shot(a.page, 'lobby-create');
  await a.page.getByRole('button', { name: 'Create world' }).click();
  await expect(a.page).toHaveURL(/#\/world\//);
  const worldUrl = a.page.url();
  await expect(a.page.getByTestId('banner')).toBeVisible();
  await shot(a.page, 'world-empty');

  // The creator is seated on creation: no "Join" button for them.
  await expect(a.page.getByTestId('banner')).toBeVisible();
  await expect(a.page.getByTestId('join-world')).toBeHidden();

  // A taken name is refused in words.
  const dupCtx = await browser.newContext();
  const dup = await dupCtx.newPage();
  await dup.goto('/#/signup');
  await dup.getByLabel('Name', { exact: true }).fill(`alaric_${stamp}`);
  await dup.getByLabel('Password').fill('another password');
  await dup.getByRole('button', { name: 'Sign up' }).click();
  await expect(dup.getByRole('alert').filter({ hasText: 'already taken' })).toBeVisible();
  await shot(dup, 'signup-taken');
  await dup.goto('/#/atlas');
  await expect(dup.getByTestId('map')).toBeVisible();
  await dup.getByRole('button', { name: 'Cherusci' }).hover();
  await expect(dup.getByTestId('area-details')).toContainText('GERMAN 1');
  await shot(dup, 'atlas');
  await dupCtx.close();

  const b = await signUp(browser, `brenna_${stamp}`);
  await shot(b.page, 'lobby-list');
  await b.page
    .getByTestId('world-row')
    .filter({ hasText: worldName })
    .getByRole('button', { name: 'Join' })
    .click();
  await expect(b.page).toHaveURL(worldUrl);

  const watcherCtx = await browser.newContext();
  const watcher = await watcherCtx.newPage();
  await watcher.goto(worldUrl);
  await expect(watcher.getByTestId('watching')).toBeVisible();

  const players: Player[] = [
    { page: a.page, start: ['GERMAN 1', 'Cherusci'], march: ['Cherusci', 'hermunduri'], name: 'a' },
    { page: b.page, start: ['GERMAN 2', 'Burgundiones'], march: ['Burgundiones', 'semnones'], name: 'b' },
  ];
  // The tab title tells whose move it is; the other player asks to be notified and looks away.
  const first = await whoseMove(players);
  const other = players.find((x) => x !== first) as Player;
  await expect(first.page).toHaveTitle(new RegExp(`^▶ Your move · ${worldName}`));
  await expect(other.page).toHaveTitle(`${worldName} — BKE Online`);
  await other.page.getByTestId('notify-toggle').click();
  await expect(other.page.getByTestId('notify-toggle')).toHaveText(/Notifying/);
  await shot(other.page, 'notify-on');
  await other.page.evaluate(() => {
    (window as unknown as { __hidden: boolean }).__hidden = true;
  });

  const seen = new Set<string>();
  let attacked = false;
  let reloaded = false;
  let notified = false;
  for (let i = 0; i < 80; i++) {
    const turn = Number(await watcher.getByTestId('turn').textContent());
    if (turn >= 3) break;
    const p = await whoseMove(players);
    if (p === other && !notified) {
      // Its move came while it looked away: the browser told it.
      await expect
        .poll(() => other.page.evaluate(() => (window as unknown as { __notes: string[] }).__notes))
        .toContain(`Your move in ${worldName}`);
      notified = true;
      await other.page.evaluate(() => {
        (window as unknown as { __hidden: boolean }).__hidden = false;
      });
      // Its other tab, the lobby, lists this world first, marked, and counts it in the title.
      const lobby = await other.page.context().newPage();
      await lobby.goto('/#/');
      const row = lobby.getByTestId('world-row').first();
      await expect(row).toContainText(worldName);
      await expect(row.getByTestId('your-move')).toBeVisible();
      await expect(lobby).toHaveTitle(/^\(\d\) BKE Online$/);
      await shot(lobby, 'lobby-your-move');
      await lobby.close();
    }
    const phase = (await p.page.getByTestId('phase').textContent()) ?? '';
    const key = `${p.name}-${phase}`;
    if (!seen.has(key)) {
      seen.add(key);
      await shot(p.page, `phase-${p.name}-${phase.toLowerCase().replace(/[^a-z]+/g, '-')}`);
    }
    if (turn === 2 && phase === 'Movement' && !reloaded) {
      // A reload in the middle of a turn: the page resumes from its stored version.
      reloaded = true;
      await p.page.reload();
      await expect(p.page.getByTestId('waiting')).toContainText('Your move');
      await shot(p.page, 'reloaded');
    }
    // One attack is enough; more would let the dice wipe out a horde and change the script.
    attacked = (await act(p, phase, !attacked)) || attacked;
  }
  expect(Number(await watcher.getByTestId('turn').textContent())).toBeGreaterThanOrEqual(3);
  expect(attacked).toBe(true);
  expect(reloaded).toBe(true);
  expect(notified).toBe(true);

  // The spectator drops off the network while the game goes on, then catches up by itself.
  await watcherCtx.setOffline(true);
  await expect(watcher.getByTestId('offline-banner')).toBeVisible({ timeout: 30_000 });
  await shot(watcher, 'watch-offline');
  const mover = await whoseMove(players);
  await act(mover, (await mover.page.getByTestId('phase').textContent()) ?? '');
  const live = await mover.page.getByTestId('banner').getAttribute('data-version');
  await watcherCtx.setOffline(false);
  await expect(watcher.getByTestId('offline-banner')).toBeHidden({ timeout: 30_000 });
  await expect(watcher.getByTestId('banner')).toHaveAttribute('data-version', live ?? '');

  // A tablet held upright: the map on top, the panels below.
  await b.page.setViewportSize({ width: 820, height: 1180 });
  await shot(b.page, 'tablet');
  await b.page.setViewportSize({ width: 1280, height: 800 });

  await watcher.getByRole('tab', { name: 'History' }).click();
  await expect(watcher.getByTestId('event-log')).toContainText('attacked');
  // Each turn's economic phase is played (barbarians without cities have nothing to decide in it).
  await expect(watcher.getByTestId('event-log')).toContainText('The economic phase of turn 1 begins.');
  await shot(watcher, 'watch-history');
  await watcher.getByRole('tab', { name: 'Chronicle' }).click();
  await expect(watcher.getByTestId('chronicle')).toContainText('GERMAN 1');
  await shot(watcher, 'watch-chronicle');
  await watcher.getByRole('tab', { name: 'Scores' }).click();
  await expect(watcher.getByTestId('standings')).toContainText(`alaric_${stamp}`);
  await shot(watcher, 'watch-scores');

  // Chat: a world-wide message shows up for the other player with an unread count.
  await a.page.getByTestId('chat-tab').click();
  await a.page.getByLabel('Message').fill('Shall we share the Rhine?');
  await a.page.getByRole('button', { name: 'Send' }).click();
  await expect(b.page.getByTestId('chat-unread')).toHaveText('1');
  await b.page.getByTestId('chat-tab').click();
  await expect(b.page.getByTestId('chat-messages')).toContainText('Shall we share the Rhine?');
  await shot(b.page, 'chat');

  // Going on holiday: the default orders play for the away player, who is shown away to everyone.
  await b.page.getByRole('tab', { name: 'Players' }).click();
  // A bot can stand in; this player picks the default orders instead.
  await b.page.getByTestId('stand-in').selectOption('');
  await b.page.getByTestId('away-toggle').click();
  await expect(b.page.getByTestId('away-toggle')).toHaveText('I am back');
  await expect(b.page.getByTestId('players')).toContainText('away (default orders)');
  await shot(b.page, 'away');
  await b.page.getByTestId('away-toggle').click();
  await expect(b.page.getByTestId('away-toggle')).toHaveText('I am away');
  await expect(b.page.getByTestId('players')).not.toContainText('away (default orders)');

  for (const c of [a.ctx, b.ctx, watcherCtx]) await c.close();
});

interface Player {
  page: Page;
  name: string;
  start: [string, string];
  march: [string, string];
  grew?: boolean;
  marched?: boolean;
}

/** The player whose banner says it is their move (the order of play is rolled by the engine). */
async function whoseMove(players: Player[]): Promise<Player> {
  for (let tries = 0; tries < 100; tries++) {
    for (const p of players) {
      const w = await p.page.getByTestId('waiting').textContent();
      if (w?.includes('Your move')) return p;
    }
    await players[0]?.page.waitForTimeout(200);
  }
  throw new Error('nobody is asked to move');
}

/** One decision of the current phase through the orders panel; true when an attack was made. */
async function act(p: Player, phase: string, mayAttack = false): Promise<boolean> {
  const page = p.page;
  const orders = page.getByTestId('orders');
  // The legal orders come in the patch of the version on screen: no waiting for a second message.
  const version = await page.getByTestId('banner').getAttribute('data-version');
  const done = async (button = page.getByTestId('end-phase')) => {
    await button.first().click();
    await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', version ?? '');
  };
  if (phase.startsWith('New barbarians')) {
    await orders.getByRole('button', { name: p.start[0], exact: true }).click();
    await done(orders.getByRole('button', { name: p.start[1], exact: true }));
    return false;
  }
  if (phase === 'Tribal growth' && !p.grew) {
    p.grew = true;
    await done(orders.getByRole('button', { name: /^Split/ }).first());
    return false;
  }
  if (phase === 'Movement' && !p.marched) {
    p.marched = true;
    const unit = orders.getByRole('button', { name: `Tribe (1)-1 in ${p.march[0]}` }).first();
    if (await unit.count()) {
      await unit.click();
      await expect(page.getByTestId(`dest-${p.march[1]}`)).toBeVisible();
      await page.getByTestId(`dest-${p.march[1]}`).hover();
      await expect(page.getByTestId('route')).toBeVisible();
      await shot(page, `move-${p.name}`);
      await done(page.getByTestId(`dest-${p.march[1]}`));
      return false;
    }
  }
  if (phase === 'Combat' && mayAttack) {
    const attack = orders.locator('[data-testid^="attack-"]').first();
    if ((await attack.count()) && (await attack.getAttribute('data-testid')) !== 'attack-plan') {
      await attack.click();
      await expect(page.getByTestId('odds').first()).toContainText(/odds|too weak/);
      // The chance of each result at the chosen odds, before the attack is confirmed (7.1).
      await expect(page.getByTestId('combat-chances')).toContainText('%');
      await shot(page, `attack-odds-${p.name}`);
      await done(page.getByTestId('confirm-attack'));
      await expect(page.getByTestId('combat-result')).toContainText(/attacked .* at .*: /);
      await shot(page, `attack-result-${p.name}`);
      return true;
    }
  }
  // Whatever the dice brought: losses, retreats, advances, overstacking, a horde cut in two.
  const follows = ['Stay put', /^Remove these/, /^→/, /^Into /, /^Accept/, /^Disband/, /^Keep the group/];
  for (const follow of follows) {
    const b = orders.getByRole('button', { name: follow }).first();
    if (await b.count()) {
      await done(b);
      return false;
    }
  }
  if (phase === 'Economic phase') await shot(page, `economic-${p.name}`);
  await expect(page.getByTestId('end-phase').first(), `a decision in ${phase}`).toBeVisible();
  await done();
  return false;
}
