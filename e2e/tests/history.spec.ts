/**
 * The History tab shows the log as it now stands, on the affected players' own screens: an order
 * taken back and given again lists once; after a moderator's rollback the undone turn's events
 * leave the players' history at once and after a reload, and a new visitor sees what stays.
 * Two players sign up in the browser; a driver (e2e/duel.ts) plays both seats with the engine's
 * sim policy through the real server between the browser's own steps.
 */
import { expect, type Page, test } from '@playwright/test';
import { check } from '../axe.ts';
import { duel } from '../goals.ts';
import { accountOf, moderate, worldOfTwo } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/history-${name}.png` });
const SPLIT = /split in two/;

// Two sign-ups, two driven turns, a moderator and a rollback on a shared machine.
test.describe.configure({ timeout: 480_000 });

/** The Events view of the History tab, turn by turn, as the page shows it now. */
async function history(page: Page): Promise<Record<string, string[]>> {
  await page
    .getByRole('tablist', { name: 'World panels' })
    .getByRole('tab', { name: /^History/ })
    .click();
  await page.getByRole('tablist', { name: 'History' }).getByRole('tab', { name: 'Events' }).click();
  const log = page.getByTestId('event-log');
  await expect(log).toBeVisible();
  return log.evaluate((el) => {
    const out: Record<string, string[]> = {};
    for (const h of Array.from(el.querySelectorAll('h4'))) {
      const lines = h.nextElementSibling?.querySelectorAll('li');
      out[(h.textContent ?? '').trim()] = lines
        ? Array.from(lines, (li) => (li.textContent ?? '').trim())
        : [];
    }
    return out;
  });
}

const splits = (h: Record<string, string[]>, turn: number) =>
  (h[`Turn ${turn}`] ?? []).filter((l) => SPLIT.test(l));

/** Clicks `button` and waits for the world's version to move on. */
async function decide(page: Page, button: ReturnType<Page['getByRole']>) {
  const before = await page.getByTestId('banner').getAttribute('data-version');
  await button.click();
  await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', before ?? '');
}

test('an order taken back lists once; a rollback takes the undone turn out of every history', async ({
  browser,
  baseURL,
}) => {
  const base = baseURL as string;
  const worldName = `Undone ${stamp}`;
  const names = [`arcadius_${stamp}`, `basina_${stamp}`];
  const { a, b, worldUrl } = await worldOfTwo(browser, names[0] as string, names[1] as string, worldName);
  const worldId = decodeURIComponent(worldUrl.split('#/world/')[1] ?? '');
  const accounts = [await accountOf(a, names[0] as string), await accountOf(b, names[1] as string)];
  const seed = `e2e-history-${stamp}`;
  // The driver plays both seats into turn 2, up to a moment where the player waited for may split
  // a tribe (tribal growth, 9.2).
  await duel({ stage: 'turn', base, accounts, worldId, seed, turn: 2, untilSplit: true });
  const moverNow = async () => {
    for (const p of [a.page, b.page])
      if ((await p.getByTestId('waiting').textContent())?.includes('Your move')) return p;
    return null;
  };
  await expect.poll(async () => (await moverNow()) !== null).toBe(true);
  const mover = (await moverNow()) as Page;
  await mover.getByRole('tab', { name: /^Orders/ }).click();
  const split = mover.getByRole('button', { name: /^Split / }).first();
  const page = mover;
  await expect(split).toBeVisible();
  const label = (await split.textContent())?.trim() ?? '';

  // Split, take it back, split again: the history lists the split once.
  await decide(page, page.getByRole('button', { name: label, exact: true }));
  expect(splits(await history(page), 2)).toHaveLength(1);
  await page.getByRole('tab', { name: /^Orders/ }).click();
  await decide(page, page.getByRole('button', { name: 'Take back last order' }));
  await expect.poll(async () => splits(await history(page), 2)).toHaveLength(0);
  await page.getByRole('tab', { name: /^Orders/ }).click();
  await decide(page, page.getByRole('button', { name: label, exact: true }));
  await expect.poll(async () => splits(await history(page), 2)).toHaveLength(1);
  await shot(page, 'split-once');
  const splitLine = splits(await history(page), 2)[0] as string;
  await page.reload();
  await expect(page.getByTestId('turn')).toHaveText('2');
  expect(splits(await history(page), 2)).toEqual([splitLine]);

  // Both seats play on to turn 3; the history now holds turn 2 with the split in it.
  await duel({ stage: 'turn', base, accounts, worldId, seed, turn: 3 });
  await expect(page.getByTestId('turn')).toHaveText('3');
  const before = await history(page);
  expect(before['Turn 2']).toContain(splitLine);
  expect(before['Turn 1']?.length).toBeGreaterThan(0);
  // Two turns played fill the map, the history and the record sheet: axe checks each tab again.
  for (const name of ['Orders', 'History', 'Replay', 'Scores', 'Chat', 'Players']) {
    await page
      .getByRole('tablist', { name: 'World panels' })
      .getByRole('tab', { name: new RegExp(`^${name}`) })
      .click();
    await check(page, `turn-3-${name.toLowerCase()}`);
  }

  // A moderator returns the world to the start of turn 2, confirming what it will do.
  const admin = await moderate(browser, worldName);
  await admin.page.getByTestId('mod-reason').fill('A disconnect spoiled turn 2');
  await admin.page.getByLabel('Return to the start of turn').selectOption({ label: 'Turn 2' });
  await admin.page.getByRole('button', { name: 'Roll back…' }).click();
  const dialog = admin.page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('undone events gone from their history');
  await dialog.getByRole('button', { name: 'Roll back to turn 2' }).click();
  await expect(admin.page.getByTestId('mod-message')).toContainText('back to the start of turn 2', {
    timeout: 60_000,
  });

  // The affected player's screen, live: told why, turn 2 again, the undone events gone.
  await expect(page.getByTestId('moderation-notice')).toContainText(
    'returned this world to the start of turn 2',
  );
  await expect(page.getByTestId('turn')).toHaveText('2');
  const stands = (h: Record<string, string[]>) => ({
    turn3: h['Turn 3'] ?? null,
    split: (h['Turn 2'] ?? []).includes(splitLine),
    turn1: h['Turn 1'],
  });
  const expected = { turn3: null, split: false, turn1: before['Turn 1'] };
  await expect.poll(async () => stands(await history(page))).toEqual(expected);
  await shot(page, 'after-rollback-live');
  // After a reload, the same.
  await page.reload();
  await expect(page.getByTestId('turn')).toHaveText('2');
  expect(stands(await history(page))).toEqual(expected);
  await shot(page, 'after-rollback-reload');
  // The other player too.
  const other = page === a.page ? b.page : a.page;
  await expect.poll(async () => stands(await history(other)).turn3).toBeNull();
  expect((await history(other))['Turn 2'] ?? []).not.toContain(splitLine);

  // A visitor who never saw the world: what stays of its history, not "Nothing has happened yet".
  const visitor = await browser.newContext();
  const v = await visitor.newPage();
  await v.goto(worldUrl);
  await expect(v.getByTestId('turn')).toHaveText('2');
  const seen = await history(v);
  await expect(v.getByTestId('event-log')).not.toContainText('Nothing has happened yet');
  expect(seen['Turn 1']?.length).toBeGreaterThan(0);
  expect(seen['Turn 3']).toBeUndefined();
  expect(seen['Turn 2'] ?? []).not.toContain(splitLine);
  await shot(v, 'after-rollback-visitor');
  for (const c of [a.ctx, b.ctx, admin.ctx, visitor]) await c.close();
});
