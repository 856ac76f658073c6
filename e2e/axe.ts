/**
 * axe-core, the maintained accessibility checker, on a page as it is now: no serious or critical
 * violation may be found. A failure lists each rule with the first elements it found; every
 * finding, the minor ones too, is kept in artifacts/a11y-<where>.json beside the page's screenshot.
 */
import { writeFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The serious and critical violations axe finds on the page as it is now, in words. */
export async function violations(page: Page, where: string, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const r = await (within ? builder.include(within) : builder).analyze();
  const all = r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target) }));
  await writeFile(
    `artifacts/a11y-${where}.json`,
    `${JSON.stringify({ passes: r.passes.length, all }, null, 1)}\n`,
  );
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/**
 * Screenshots the whole page, then fails on any serious or critical violation axe finds there —
 * or only `within` that selector, for a part of a page checked whole in another state (axe on a
 * whole world page, its map included, takes about a minute on a busy machine).
 */
export async function check(page: Page, where: string, within?: string): Promise<void> {
  await page.screenshot({ path: `artifacts/a11y-${where}.png`, fullPage: true });
  expect(await violations(page, where, within), `axe on ${where}`).toEqual([]);
}
