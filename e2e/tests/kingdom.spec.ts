/**
 * An economic phase played through the UI by a kingdom. A real Socket.IO client of the
 * player's own account plays the engine's sim policy through the real server (e2e/drive.ts) until
 * the player is a kingdom with a plan to make, in a world whose seed the driver chose offline so
 * that this happens (reproducible); then the player's browser page makes it: an
 * administration column and a unit bought in one of the areas offered, Ready, and the
 * administration roll in words, in the event log and in the turn record sheet. A second world:
 * a realm short of money for its upkeep is told which units would go and picks another set.
 * Screenshots in e2e/artifacts/kingdom-*.png.
 */
import { expect, type Page, test } from '@playwright/test';
import { browserCookie, drive } from '../goals.ts';

const stamp = Date.now().toString(36).slice(-5);
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/kingdom-${name}.png` });

interface PlanFound {
  column: number;
  kind: string;
  area: string;
  areaName: string;
  /** The engine's own preview of the plan (realmPlanCost): record-sheet columns 6–9. */
  cost: { upkeep: number; purchases: number; administration: number; treasuryLeft: number };
}

test('a kingdom makes its economic plan in the browser and sees its administration roll', async ({
  browser,
  baseURL,
}) => {
  // About a hundred orders through the server per world tried (a few seconds each), then the UI.
  test.setTimeout(180_000);
  const base = baseURL as string;
  const driven = await drive<PlanFound>({
    base,
    goal: 'kingdomPlan',
    name: `theodo_${stamp}`,
    seeded: true,
    seedBase: 'e2e-kingdomPlan',
  });
  const { column, kind, areaName, cost } = driven.found;

  const ctx = await browser.newContext();
  await ctx.addCookies([browserCookie(driven.account, base)]);
  const page = await ctx.newPage();
  await page.goto(`/#/world/${driven.worldId}`);
  await expect(page.getByTestId('account-name')).toHaveText(driven.account.name);
  await expect(page.getByTestId('phase')).toHaveText('Economic phase');
  await expect(page.getByTestId('map')).toBeVisible();
  await expect(page.getByTestId('waiting')).toContainText('Your move');
  const form = page.getByTestId('realm-plan');
  await expect(form).toBeVisible();
  await shot(page, 'plan');

  await form.getByRole('radio', { name: new RegExp(`^${column}% column`) }).check();
  // Each offer names the unit and the area it would be placed in.
  await form.getByRole('checkbox', { name: new RegExp(`^${kind} in ${areaName}\\b`, 'i') }).check();
  // The form shows what the plan costs before it is recorded, as the engine reckons it.
  await expect(form.getByTestId('treasury-left')).toHaveText(String(cost.treasuryLeft));
  await expect(form.getByTestId('plan-cost')).toContainText(`New units−${cost.purchases}`);
  await shot(page, 'plan-filled');
  await form.screenshot({ path: 'artifacts/kingdom-plan-form.png' });
  const before = await page.getByTestId('banner').getAttribute('data-version');
  await form.getByTestId('send-plan').click();
  await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', before ?? '');
  await shot(page, 'plan-recorded');
  await page.getByTestId('end-phase').click();
  await expect(page.getByTestId('phase')).not.toHaveText('Economic phase');
  await shot(page, 'after-economy');

  await page.getByRole('tab', { name: 'History' }).click();
  const log = page.getByTestId('event-log');
  await expect(log).toContainText(`(the ${column}% column)`);
  // The roll is on the column bought, shifted by the people's penalty or an administrator (10.6).
  await expect(log).toContainText(/rolled \d\+\d on the \d+% administration column: /);
  await shot(page, 'history');

  await page.getByRole('tab', { name: 'Scores' }).click();
  // Turn record sheet (14.3.3): this turn's row has the upkeep (column 6), the unit bought (7), the
  // administration spending (8), the treasury left (9) the form previewed, the column bought (10) and
  // the administration result (11).
  const sheet = page.getByTestId('record-sheet');
  const row = sheet
    .locator('tbody tr')
    .filter({ has: page.locator('td:nth-child(2)', { hasText: new RegExp(`^${driven.turn}$`) }) });
  await expect(row).toHaveCount(1);
  await expect(row.locator('td:nth-child(7)')).toHaveText(String(cost.upkeep));
  await expect(row.locator('td:nth-child(8)')).toHaveText(String(cost.purchases));
  await expect(row.locator('td:nth-child(9)')).toHaveText(String(cost.administration));
  await expect(row.locator('td:nth-child(10)')).toHaveText(String(cost.treasuryLeft));
  await expect(row.locator('td:nth-child(11)')).toHaveText(String(column));
  // Column 11: the administration roll and its result in words ("Rolled 7: Good Ruler", "Rolled 6:
  // number 4, no change"), never bare numbers.
  await expect(row.locator('td:nth-child(12)')).toHaveText(/^Rolled \d+: [A-Za-z]/);
  await expect(row.locator('td:nth-child(12)')).not.toHaveText(/^\d+: \d+$/);
  await row.locator('td:nth-child(12)').scrollIntoViewIfNeeded();
  await shot(page, 'record-sheet');
  await sheet.screenshot({ path: 'artifacts/kingdom-record-sheet-table.png' });
  await ctx.close();
});

interface Cost {
  upkeep: number;
  treasuryLeft: number;
}
interface ShortfallFound {
  disband: string[];
  stage: string;
  cost: Cost;
  /** Another minimal set: one suggested unit kept, another given up (by kind and area). */
  other: { keep: { kind: string; areaName: string }; drop: { kind: string; areaName: string }; cost: Cost };
}

test('a realm that cannot pay all its upkeep chooses which units go, and they go', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL as string;
  const driven = await drive<ShortfallFound>({
    base,
    goal: 'upkeepShortfall',
    name: `odoacer_${stamp}`,
    seeded: true,
    seedBase: 'e2e-upkeepShortfall',
  });
  const { disband, cost, other } = driven.found;
  const ctx = await browser.newContext();
  await ctx.addCookies([browserCookie(driven.account, base)]);
  const page = await ctx.newPage();
  await page.goto(`/#/world/${driven.worldId}`);
  await expect(page.getByTestId('phase')).toHaveText('Economic phase');
  await expect(page.getByTestId('map')).toBeVisible();
  const form = page.getByTestId('realm-plan');
  // 10.5: upkeep is paid first; what cannot be paid is disbanded, and the form says so beforehand.
  await expect(form).toContainText('will be disbanded');
  await expect(form.getByTestId('treasury-left')).toHaveText(String(cost.treasuryLeft));
  await expect(form.getByTestId('plan-cost')).toContainText(`Upkeep−${cost.upkeep}`);
  await shot(page, 'shortfall-plan');
  // 10.4: the player chooses which units go, as long as no fewer would do.
  const choice = form.getByTestId('disband-choice');
  await choice.locator('summary').click();
  const unit = (u: { kind: string; areaName: string }) =>
    choice.getByRole('checkbox', { name: new RegExp(`^${u.kind} .* in ${u.areaName}$`, 'i') });
  await expect(unit(other.keep)).toBeChecked();
  await unit(other.keep).uncheck();
  await unit(other.drop).check();
  await expect(form.getByTestId('treasury-left')).toHaveText(String(other.cost.treasuryLeft));
  await expect(form.getByTestId('plan-problem')).toHaveCount(0);
  await shot(page, 'shortfall-choice');
  const before = await page.getByTestId('banner').getAttribute('data-version');
  await form.getByTestId('send-plan').click();
  await expect(page.getByTestId('banner')).not.toHaveAttribute('data-version', before ?? '');
  await page.getByTestId('end-phase').click();
  // 11.7.2, 14.3: an empire's administration can end it in a Complete Collapse; Ready says how
  // likely before the decisions are confirmed (a kingdom's 7 has no effect).
  if (driven.found.stage === 'empire') {
    await expect(page.getByTestId('confirm-cost')).toContainText(
      'can end your empire in a Complete Collapse',
    );
    await page.getByTestId('confirm-anyway').click();
  }
  await expect(page.getByTestId('phase')).not.toHaveText('Economic phase');
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('event-log')).toContainText(
    `paid ${other.cost.upkeep} upkeep and disbanded ${disband.length === 1 ? '1 unit' : `${disband.length} units`} it could not pay`,
  );
  await shot(page, 'shortfall-history');
  await ctx.close();
});
