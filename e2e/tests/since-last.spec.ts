/**
 * "Since you were last here" on the player's own screen: two players sign up in the browser; one
 * looks at the world and goes back to the lobby; a driver (e2e/duel.ts) plays both seats through
 * the real server for 10 game turns; back on the world's page, she gets the summary of exactly those
 * turns, and its links open the replay at each moment. Screenshots in e2e/artifacts/since-last-*.png.
 */
import { expect, type Page, test } from '@playwright/test';
import { check } from '../axe.ts';
import { duel } from '../goals.ts';
import { accountOf, worldOfTwo } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/since-last-${name}.png` });
const AWAY = 10;

// Two sign-ups and ten driven game turns on a shared machine.
test.describe.configure({ timeout: 900_000 });

test('a player away for 10 game turns gets their summary, each line opening the replay there', async ({
  browser,
  baseURL,
}) => {
  const base = baseURL as string;
  const names = [`aurelia_${stamp}`, `brannoc_${stamp}`];
  const { a, b, worldUrl } = await worldOfTwo(
    browser,
    names[0] as string,
    names[1] as string,
    `Away ${stamp}`,
  );
  const worldId = decodeURIComponent(worldUrl.split('#/world/')[1] ?? '');
  const accounts = [await accountOf(a, names[0] as string), await accountOf(b, names[1] as string)];
  const seed = `e2e-since-${stamp}`;
  await duel({ stage: 'turn', base, accounts, worldId, seed, turn: 2 });
  const page = a.page;
  await page.reload();
  await expect(page.getByTestId('turn')).toHaveText('2');
  // She reads what there is, says "Got it" and goes back to the list of worlds.
  const first = page.getByTestId('since-last');
  if (await first.isVisible()) await page.getByTestId('since-last-dismiss').click();
  await page.goto('/#/');
  await b.page.goto('/#/');

  for (let turn = 2 + 3; turn < 2 + AWAY; turn += 3)
    await duel({ stage: 'turn', base, accounts, worldId, seed, turn });
  await duel({ stage: 'turn', base, accounts, worldId, seed, turn: 2 + AWAY });

  await page.goto(worldUrl);
  await expect(page.getByTestId('turn')).toHaveText(String(2 + AWAY));
  const summary = page.getByTestId('since-last');
  await expect(summary).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('since-last-headline')).toContainText(
    `${AWAY} game turns passed (turn 2 to turn ${2 + AWAY}) since you were last here`,
  );
  const links = summary.getByTestId('since-last-link');
  expect(await links.count()).toBeGreaterThan(0);
  await shot(page, 'summary');
  await check(page, 'since you were last here');

  // Each line's turn is one of the turns she was away for.
  for (const text of await links.allTextContents()) {
    const t = Number(text.replace('Turn ', ''));
    expect(t).toBeGreaterThanOrEqual(2);
    expect(t).toBeLessThanOrEqual(2 + AWAY);
  }
  // The links open the replay at their moment: the turn chosen, the step of that order or the one before.
  const count = await links.count();
  for (const i of [0, Math.floor(count / 2), count - 1]) {
    const link = links.nth(i);
    const href = (await link.getAttribute('href')) ?? '';
    const [, turn, seq] = href.match(/\/replay\/(\d+)\/(\d+)$/) ?? [];
    await link.click();
    await expect(page.getByTestId('replay')).toBeVisible();
    await expect(page.getByTestId('replay-turn')).toHaveValue(String(turn));
    const step = page.getByTestId('replay-step');
    await expect(step).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(async () => Number(await step.getAttribute('data-seq')))
      .toBeLessThanOrEqual(Number(seq));
    await shot(page, `replay-${i}`);
  }
  await check(page, 'the replay opened from the summary');

  // Seen: after "Got it", a reload brings no summary back.
  await page.getByTestId('since-last-dismiss').click();
  await expect(summary).toBeHidden();
  await page.goto('/#/');
  await page.goto(worldUrl);
  await expect(page.getByTestId('turn')).toHaveText(String(2 + AWAY));
  await page.waitForTimeout(2000);
  await expect(page.getByTestId('since-last')).toHaveCount(0);
  await a.ctx.close();
  await b.ctx.close();
});
