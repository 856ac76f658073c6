/**
 * The analysis board, from the replay of a past turn: a player plays two turns (in the second one
 * two tribes combine into a fighting unit beside a neutral garrison), opens the replay of that turn
 * at the combination, and opens the analysis board there; on the board the phases are ended up to
 * the combat phase. On the board the attack is played with the dice set to 6 and 6,
 * stepped back, and played again with 1 and 1 (a second line); the lines are switched between; a link
 * to the position opens a board of its own, and a broken link is refused in words. Back in the world,
 * nothing has changed: the same version, the same replay step, no new order in the world's history.
 * Screenshots land in e2e/artifacts/analysis-*.png.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/analysis-${name}.png` });

/** Clicks and waits for the world to move on (a new view version). */
async function decide(page: Page, button: Locator) {
  const before = await page.getByTestId('banner').getAttribute('data-version');
  await button.click();
  await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', before ?? '');
  await page.waitForTimeout(300);
}

/** Ends phases (accepting a foreseen cost) until `done` holds. */
async function endPhasesUntil(page: Page, done: () => Promise<boolean>, tries = 25) {
  for (let i = 0; i < tries && !(await done()); i++) {
    const end = page.getByTestId('end-phase');
    if (await page.getByTestId('confirm-cost').isVisible())
      await decide(page, page.getByTestId('confirm-anyway'));
    else if (await end.isVisible()) await decide(page, end);
    else await page.waitForTimeout(300);
  }
}

/** The world's history as the server holds it (its orders, newest first). */
async function historyOf(page: Page, worldId: string) {
  const r = await page.request.get(`/api/worlds/${encodeURIComponent(worldId)}/history?before=2000000000`);
  expect(r.ok()).toBe(true);
  return JSON.stringify(await r.json());
}

test('from the replay of a past turn: an attack with set dice, a step back, a branch, and back to the world unchanged', async ({
  page,
}) => {
  test.setTimeout(360_000);
  await page.goto('/#/signup');
  await page.getByLabel('Name', { exact: true }).fill(`analyst_${stamp}`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByTestId('account-name')).toHaveText(`analyst_${stamp}`);
  await page.getByLabel('Name', { exact: true }).fill(`Analysis ${stamp}`);
  await page.getByRole('radio', { name: /Live/ }).check();
  await page.getByLabel('Minutes per phase', { exact: true }).fill('30');
  await page.getByRole('button', { name: 'Create world' }).click();
  await expect(page).toHaveURL(/#\/world\//);
  const worldId = decodeURIComponent(/#\/world\/([^/]+)/.exec(page.url())?.[1] ?? '');
  await expect(page.getByTestId('waiting')).toContainText('Your move', { timeout: 30_000 });
  await page.waitForTimeout(300);

  // Turn 1: GERMAN 1 in Cherusci, a split, the two tribes apart (as a newcomer plays it).
  const orders = page.getByTestId('orders');
  await orders.getByRole('button', { name: 'GERMAN 1', exact: true }).click();
  await decide(page, orders.getByRole('button', { name: 'Cherusci', exact: true }));
  await endPhasesUntil(page, async () => (await page.getByTestId('phase').textContent()) === 'Tribal growth');
  await decide(page, orders.getByRole('button', { name: /^Split/ }).first());
  await decide(page, page.getByTestId('end-phase'));
  await expect(page.getByTestId('phase')).toHaveText('Movement');
  await orders.getByRole('button', { name: 'Tribe (1)-1 in Cherusci' }).first().click();
  await decide(page, page.getByTestId('dest-hermunduri'));
  if (!(await page.getByTestId('dest-chatti').isVisible()))
    await orders.getByRole('button', { name: 'Tribe (1)-1 in Cherusci' }).first().click();
  await decide(page, page.getByTestId('dest-chatti'));
  await endPhasesUntil(page, async () => (await page.getByTestId('turn').textContent()) === '2');
  await expect(page.getByTestId('turn')).toHaveText('2');

  // Turn 2: the tribes combine into a fighting unit next to a neutral garrison; the turn ends
  // without an attack (the world's own dice play no part in what follows).
  await expect(page.getByTestId('phase')).toHaveText('Tribal combination');
  const v2 = await page.getByTestId('banner').getAttribute('data-version');
  await page.locator('g.counter.pickable').first().click();
  await page.locator('g.counter.pickable:not(.chosen)').first().click();
  if ((await page.getByTestId('banner').getAttribute('data-version')) === v2)
    await page.locator('path.dest[data-area]').first().dispatchEvent('click');
  await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', v2 ?? '');
  await page.waitForTimeout(300);
  await endPhasesUntil(page, async () => (await page.getByTestId('phase').textContent()) === 'Combat');
  await expect(page.getByTestId('phase')).toHaveText('Combat');
  await expect(page.getByTestId('orders').locator('[data-testid^="attack-"]').first()).toBeVisible();
  await endPhasesUntil(page, async () => (await page.getByTestId('turn').textContent()) === '3');
  await expect(page.getByTestId('turn')).toHaveText('3');

  // The replay of turn 2, at the step of the combination.
  await page.getByTestId('replay-tab').click();
  const replay = page.getByTestId('replay');
  await expect(replay.getByTestId('replay-turn')).toHaveValue('2');
  await expect(replay.getByTestId('replay-redrawn')).toBeVisible({ timeout: 20_000 });
  const steps = replay.locator('ol.steps button');
  const texts = await steps.allTextContents();
  const combinedAt = texts.findIndex((t) => /combined two tribes/.test(t));
  expect(combinedAt).toBeGreaterThan(0);
  await steps.nth(combinedAt).click();
  const stepShown = await replay.getByTestId('replay-step').getAttribute('data-seq');
  const versionBefore = await page.getByTestId('banner').getAttribute('data-version');
  const historyBefore = await historyOf(page, worldId);
  await shot(page, 'replay-step');

  await replay.getByTestId('replay-analyse').click();
  const board = page.getByTestId('analysis-board');
  await expect(board).toBeVisible({ timeout: 30_000 });
  await expect(board.getByTestId('analysis-from')).toContainText('Turn 2 of the replay');
  await expect(board.getByTestId('analysis-from')).toContainText('never reaches the world');

  // Up to the combat phase on the board, then the attack with the chances the world page shows,
  // the dice set to 6 and 6.
  const attacks = board.locator('[data-testid^="attack-"]:not([data-testid="attack-plan"])');
  for (let i = 0; i < 10 && !(await attacks.first().isVisible()); i++) {
    if (await board.getByTestId('confirm-cost').isVisible())
      await board.getByTestId('confirm-anyway').click();
    else await board.getByTestId('end-phase').click();
    await page.waitForTimeout(200);
  }
  await attacks.first().click();
  await expect(board.getByTestId('combat-chances')).toContainText('Two dice decide (rule 7.1)');
  await board.getByTestId('analysis-set-dice').check();
  await board.getByTestId('analysis-die-1').selectOption('6');
  await board.getByTestId('analysis-die-2').selectOption('6');
  await shot(page, 'set-dice');
  await board.getByTestId('confirm-attack').click();
  const happened = board.getByTestId('analysis-happened');
  await expect(happened).toContainText(/attacked the neutral garrison in .* at .*, rolled 6\+6 = 12: /);
  const won = (await happened.textContent()) ?? '';
  await shot(page, 'attack-6-6');

  // A step back: the attack is to be made again; the dice go back to rolling.
  await board.getByTestId('analysis-back').click();
  await expect(happened).not.toContainText('rolled 6+6');
  await expect(attacks.first()).toBeVisible();
  await expect(board.getByTestId('analysis-forward')).toBeEnabled();

  // A branch: the same attack with 1 and 1.
  await attacks.first().click();
  await board.getByTestId('analysis-set-dice').check();
  await board.getByTestId('analysis-die-1').selectOption('1');
  await board.getByTestId('analysis-die-2').selectOption('1');
  await board.getByTestId('confirm-attack').click();
  await expect(happened).toContainText('rolled 1+1 = 2');
  const lines = board.getByTestId('analysis-lines');
  await expect(lines.getByRole('button')).toHaveCount(2);
  await expect(board.getByTestId('analysis-line-2')).toHaveAttribute('aria-pressed', 'true');
  await shot(page, 'two-lines');

  // Switching lines: the first one shows its own result again.
  await board.getByTestId('analysis-line-1').click();
  await expect(happened).toHaveText(won);
  await expect(board.getByTestId('analysis-line-1')).toHaveAttribute('aria-pressed', 'true');
  await board.getByTestId('analysis-line-2').click();
  await expect(happened).toContainText('rolled 1+1 = 2');

  // A link to the position after the attack opens a board of its own (what a spectator sees).
  await board.getByTestId('analysis-share').click();
  const link = await board.getByTestId('analysis-link').inputValue();
  expect(link).toMatch(/#\/analysis\/[A-Za-z0-9_-]+$/);

  // Back to the world: nothing there changed.
  await board.getByTestId('analysis-close').click();
  await expect(board).toBeHidden();
  await expect(page.getByTestId('banner')).toHaveAttribute('data-version', versionBefore ?? '');
  await expect(replay.getByTestId('replay-step')).toHaveAttribute('data-seq', stepShown ?? '');
  await expect(page.getByTestId('turn')).toHaveText('3');
  expect(await historyOf(page, worldId)).toBe(historyBefore);
  await shot(page, 'back-in-world');

  // The shared link, in a fresh page: the board opens on the position after the 1+1 attack.
  const other = await page.context().newPage();
  await other.goto(link);
  const shared = other.getByTestId('analysis-board');
  await expect(shared).toBeVisible({ timeout: 30_000 });
  await expect(shared.getByTestId('analysis-from')).toContainText('shared as a link');
  await expect(shared.getByTestId('analysis-side')).toBeVisible();
  await other.screenshot({ path: 'artifacts/analysis-shared-link.png' });
  // A link cut short is refused in words.
  await other.goto(link.slice(0, link.length - 40));
  await expect(other.getByTestId('analysis-error')).toContainText(
    /does not hold a position|does not unpack|cut short/,
  );
  await other.goto(`${link.split('#')[0]}#/analysis/not-a-position`);
  await expect(other.getByTestId('analysis-error')).toBeVisible();
  await expect(other.getByTestId('analysis-error')).not.toContainText('position/');
  await other.screenshot({ path: 'artifacts/analysis-broken-link.png' });
  await other.close();
});
