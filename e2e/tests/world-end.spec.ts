/**
 * A world played until a set game turn, seen by its two players (docs/world-access.md, docs/ratings.md,
 * docs/notes-and-blocks.md): notes one of them types survive a reload and never reach the other; once
 * both let a stand-in bot play their seats the world reaches its last turn, and each page shows the
 * final table with each person's rating before and after; "Play again" opens a new world with the
 * creator seated, and the other player, invited by name, opens it — a world without spectators, so
 * its page shows him nothing of it — and takes a seat from there.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';

const stamp = Date.now().toString(36).slice(-5);
const NORA = `nora_${stamp}`;
const OWEN = `owen_${stamp}`;
const NOTE = 'Owen hoards gold in the north — strike before turn 3.';
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/world-end-${name}.png` });

async function post(base: string, path: string, body: unknown, cookie = '') {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-bke-csrf': '1', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return { json, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' };
}

async function personAt(ctx: BrowserContext, base: string, cookie: string, url: string, name: string) {
  const i = cookie.indexOf('=');
  await ctx.addCookies([{ name: cookie.slice(0, i), value: cookie.slice(i + 1), url: base }]);
  const page = await ctx.newPage();
  await page.goto(url);
  await expect(page.getByTestId('account-name')).toHaveText(name);
  await expect(page.getByTestId('map')).toBeVisible();
  return page;
}

test('a world ends at its last turn: notes kept private, the final table with ratings, play again', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL as string;
  const nora = (await post(base, '/api/auth/signup', { username: NORA, password: 'correct horse battery' }))
    .cookie;
  const owen = (await post(base, '/api/auth/signup', { username: OWEN, password: 'correct horse battery' }))
    .cookie;
  const created = await post(
    base,
    '/api/worlds',
    {
      name: `Short campaign ${stamp}`,
      deadline: { mode: 'live', minutesPerPhase: 60 },
      maxPlayers: 2,
      join: true,
      ending: { until: 'turn', turn: 2, rated: true },
      access: { who: 'private', reservedSeats: 0, spectators: false, invite: [OWEN] },
    },
    nora,
  );
  const worldId = (created.json.world as { id: string }).id;
  await post(base, `/api/worlds/${worldId}/join`, {}, owen);

  const a = await personAt(await browser.newContext(), base, nora, `/#/world/${worldId}`, NORA);
  const b = await personAt(await browser.newContext(), base, owen, `/#/world/${worldId}`, OWEN);

  // Nora's notes: saved as she types, there again after a reload, and nowhere on Owen's page.
  await a.getByTestId('notes-tab').click();
  await a.getByTestId('notes').fill(NOTE);
  await expect(a.getByTestId('notes-state')).toHaveText(/^Saved/);
  await a.reload();
  await a.getByTestId('notes-tab').click();
  await expect(a.getByTestId('notes')).toHaveValue(NOTE);
  await expect(a.getByTestId('notes-state')).toHaveText(/^Saved/);
  await shot(a, 'notes-after-reload');
  await b.getByTestId('notes-tab').click();
  await expect(b.getByTestId('notes-state')).toHaveText('Nothing written yet.');
  await expect(b.getByTestId('notes')).toHaveValue('');
  await expect(b.getByText('strike before turn 3')).toHaveCount(0);
  await shot(b, 'notes-other-player');

  // Both hand their seats to a stand-in bot: the world plays itself to the end of turn 2
  // (Owen, who joined after the world began, enters at turn 2: both then hold a place at the table).
  for (const cookie of [nora, owen])
    await post(base, `/api/worlds/${worldId}/away`, { away: true, standIn: 'easy' }, cookie);
  for (const page of [a, b]) {
    await page.getByRole('tab', { name: 'Orders' }).click();
    const table = page.getByTestId('final-table');
    await expect(table).toBeVisible({ timeout: 60_000 });
    await expect(table.getByRole('row')).toHaveCount(3);
    for (const name of [NORA, OWEN])
      await expect(table.getByRole('row').filter({ hasText: name })).toContainText(/\d+ → \d+ \([+−±]\d+\)/);
  }
  await shot(a, 'final-table');
  await shot(b, 'final-table-other-player');

  // Play again: Nora is seated in the new world; Owen, invited, opens it and takes the other seat.
  await a.getByTestId('play-again').click();
  await expect(a).not.toHaveURL(new RegExp(worldId));
  await expect(a.getByTestId('map')).toBeVisible();
  const again = a.url();
  await expect(a.getByTestId('join-world')).toBeHidden();
  await expect(a.getByTestId('watching')).toBeHidden();
  // Owen opens the new world in a tab of his own (as from the link Nora sends him).
  const b2 = await b.context().newPage();
  await b2.goto(again.slice(again.indexOf('/#')));
  await expect(b2.getByRole('alert')).toContainText('takes no spectators');
  await expect(b2.getByTestId('map')).toHaveCount(0);
  await shot(b2, 'play-again-invited');
  await b2.getByTestId('join-world').click();
  await expect(b2.getByTestId('map')).toBeVisible();
  await expect(b2.getByTestId('join-world')).toBeHidden();
  await expect(b2.getByTestId('watching')).toBeHidden();
  await b2.getByRole('tab', { name: 'Players' }).click();
  for (const name of [NORA, OWEN]) await expect(b2.getByTestId('players')).toContainText(name);
  await shot(b2, 'play-again-seated');
});
