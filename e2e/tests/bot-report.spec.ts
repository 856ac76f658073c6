/**
 * "What a bot did for me": a player goes away with a bot standing in, comes back after it played
 * two turns and more, and reads what it did in words — no engine ids — each order under the turn
 * it was given in, in the sentences the History uses for that same turn.
 * Screenshots land in e2e/artifacts/bot-report-*.png.
 */
import { expect, test } from '@playwright/test';
import { check } from '../axe.ts';
import { enter } from '../people.ts';

const stamp = Date.now().toString(36).slice(-5);

test('a bot that stood in is reported in words, each order under its own turn', async ({ browser }) => {
  test.setTimeout(300_000);
  const { ctx, page } = await enter(browser, 'signup', `holiday_${stamp}`);
  await page.getByLabel('Name', { exact: true }).fill(`Holiday ${stamp}`);
  await page.getByRole('radio', { name: /Live/ }).check();
  await page.getByLabel('Minutes per phase', { exact: true }).fill('30');
  await page.getByRole('button', { name: 'Create world' }).click();
  await expect(page.getByTestId('waiting')).toContainText('Your move', { timeout: 30_000 });

  // Away before the horde has even entered: an Easy bot picks its start and plays on.
  await page.getByRole('tab', { name: 'Players' }).click();
  await page.getByTestId('stand-in').selectOption('easy');
  await page.getByTestId('away-toggle').click();
  await expect(page.getByTestId('away-toggle')).toHaveText('I am back');
  await expect
    .poll(async () => Number(await page.getByTestId('turn').textContent()), { timeout: 180_000 })
    .toBeGreaterThanOrEqual(3);
  await page.getByTestId('away-toggle').click();
  await expect(page.getByTestId('away-toggle')).toHaveText('I am away');
  const now = Number(await page.getByTestId('turn').textContent());

  await page.getByText('What a bot did for me').click();
  const report = page.getByTestId('bot-orders');
  await expect(report.locator('li').first()).toBeVisible({ timeout: 20_000 });
  const lines = await report.locator('li').evaluateAll((lis) =>
    lis.map((li) => ({
      turn: Number((li as HTMLElement).dataset.turn),
      said: li.querySelector('.said')?.textContent?.trim() ?? '',
      text: li.textContent ?? '',
    })),
  );
  // Words, not ids: no unit (u491) or player (p1) is named by the engine's id.
  for (const l of lines) expect(l.text).not.toMatch(/\b[up]\d+\b/);
  // The entry in turn 1 and the splits and moves of the turns after, each under its own turn.
  const turns = [...new Set(lines.map((l) => l.turn))];
  expect(turns.length).toBeGreaterThanOrEqual(2);
  expect(Math.min(...turns)).toBe(1);
  expect(Math.max(...turns)).toBeLessThanOrEqual(now);
  expect(lines.map((l) => l.turn)).toEqual([...lines.map((l) => l.turn)].sort((a, b) => a - b));
  expect(lines.some((l) => /split/i.test(l.said))).toBe(true);
  await report.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'artifacts/bot-report-words.png' });
  await check(page, 'bot-report');

  // As the History speaks: each single-sentence line stands in the History under the same turn.
  await page.getByRole('tab', { name: 'History' }).click();
  const history = await page.getByTestId('event-log').evaluate((log) => {
    const byTurn: Record<number, string[]> = {};
    let turn = 0;
    for (const el of Array.from(log.children)) {
      if (el.tagName === 'H4') turn = Number(el.textContent?.replace('Turn ', ''));
      else
        byTurn[turn] = [
          ...(byTurn[turn] ?? []),
          ...Array.from(el.querySelectorAll('li')).map((li) => li.textContent?.trim() ?? ''),
        ];
    }
    return byTurn;
  });
  const shown = Object.keys(history).map(Number);
  // (The lines that tell what the player did; an order that changed nothing, "Ended the phase.", has
  // no line in the History.)
  const comparable = lines.filter(
    (l) => shown.includes(l.turn) && l.said.startsWith(`holiday_${stamp}`) && /^[^.]+\.$/.test(l.said),
  );
  expect(comparable.length).toBeGreaterThan(0);
  for (const l of comparable) expect(history[l.turn], `turn ${l.turn}: ${l.said}`).toContain(l.said);
  await page.screenshot({ path: 'artifacts/bot-report-history.png' });
  await ctx.close();
});
