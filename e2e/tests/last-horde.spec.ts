/**
 * An attack that can end the horde says so, with its chance, before it is confirmed; after the
 * loss the page says what happened and opens that combat in the replay (14.3, 7.2).
 *
 * The position is arranged, as an admin arranges a teaching puzzle (docs/world-from-position.md):
 * a two-player game is played by the engine until both hordes are on the board, then the
 * player's horde is cut down to one barbarian infantry beside the bot's tribe, in the player's
 * combat phase, and written as an analysis board's link. The admin starts a world from that link
 * with a seed whose first roll ends the horde (found here by playing the attack through the engine),
 * the player in the attacking seat and an easy bot in the other. Screenshots: e2e/artifacts/last-horde-*.png.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CSRF_HEADER } from '@bke/protocol';
import { expect, type Page, request, test } from '@playwright/test';
import type { Arranged } from '../arrange.ts';
import { check } from '../axe.ts';
import { ADMIN, ADMIN_PASSWORD, enter } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/last-horde-${name}.png` });

/** The arranged position (e2e/arrange.ts), built in its own Node process. */
const arranged = () =>
  new Promise<Arranged>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', 'e2e/arrange.ts'],
      { cwd: fileURLToPath(new URL('../../', import.meta.url)), timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`arrange: ${stderr || error.message}`)) : resolve(JSON.parse(stdout.trim())),
    ),
  );

test('an attack that can end the horde warns with its chance; after the loss the page explains it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const name = `alaric_${stamp}`;
  const player = await enter(browser, 'signup', name);
  const { code, seed, target, area } = await arranged();

  // The admin starts the world from the position's link.
  const admin = await request.newContext({ baseURL, extraHTTPHeaders: { [CSRF_HEADER]: '1' } });
  expect(
    (await admin.post('/api/auth/login', { data: { username: ADMIN, password: ADMIN_PASSWORD } })).ok(),
  ).toBe(true);
  const made = await admin.post('/api/moderation/worlds/from-position', {
    data: {
      reason: 'A teaching puzzle: the last horde',
      name: `The last horde ${stamp}`,
      position: `${baseURL}/#/analysis/${code}`,
      seats: [
        { playerId: 'p1', username: name },
        { playerId: 'p2', bot: 'easy' },
      ],
      seed,
      deadline: { mode: 'live', minutesPerPhase: 30 },
    },
  });
  expect(made.status()).toBe(200);
  const worldId = ((await made.json()) as { action: { worldId: string } }).action.worldId;
  await admin.dispose();

  // Before: the attack with every unit the horde has says it can end the horde, and how likely.
  const { page } = player;
  await page.goto(`/#/world/${worldId}`);
  await expect(page.getByTestId('phase')).toHaveText('Combat');
  await page.getByTestId(`attack-${target}`).click();
  const warning = page.getByTestId('fatal-risk');
  await expect(warning).toHaveText(
    'Warning. This attack at 3-2 can end your horde: 1 in 3 (attacker eliminated: 1 in 36 or an exchange: 11 in 36). It uses every unit you have left, and a horde with no units has finished its cycle; its victory points are kept and you pick a new start (rule 14.3).',
  );
  await warning.scrollIntoViewIfNeeded();
  await shot(page, 'warning');
  // The orders panel only: the whole world page is checked below, with the loss explained.
  await check(page, 'the attack that can end the horde', '[data-testid="orders"]');

  // The player attacks anyway; the dice of the world's seed take the last unit.
  await page.getByTestId('confirm-attack').click();
  await expect(page.getByTestId('combat-result')).toContainText(`at 3-2`);
  const end = page.getByTestId('end-phase');
  if (await end.isVisible()) await end.click();

  // After: what happened, what is kept, what comes next; the combat one click away.
  const loss = page.getByTestId('loss-explained');
  await expect(loss).toBeVisible({ timeout: 60_000 });
  await expect(loss.getByRole('heading')).toHaveText('Your horde is gone');
  await expect(loss).toContainText(
    new RegExp(
      `In turn 1 you attacked Easy bot 1 \\(bot\\) in ${area} at 3-2; the dice showed \\d and \\d: (exchange|attacker eliminated)`,
    ),
  );
  await expect(loss).toContainText(
    'Your horde has no units left, and a horde with no units has finished its cycle',
  );
  await expect(page.getByTestId('loss-kept')).toContainText('victory points of that cycle');
  await expect(page.getByTestId('loss-next')).toContainText('pick a new start position');
  await shot(page, 'explained');
  await check(page, 'the loss explained');
  await page.getByTestId('loss-replay').click();
  await expect(page.getByTestId('replay-turn')).toHaveValue('1');
  await expect(page.getByTestId('replay-step')).toContainText(new RegExp(`attacked .*${area}.* 3-2`), {
    timeout: 30_000,
  });
  await shot(page, 'replay');
  await player.ctx.close();
});
