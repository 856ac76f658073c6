/**
 * People in the browser for the e2e specs: an account signed up or logged in through the real
 * forms in its own browser context, two players seated in one new world, and the admin (created by
 * the server at start-up, see server.ts) on a world's moderation page.
 */
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';

export const ADMIN = process.env.E2E_ADMIN_USERNAME ?? 'e2e_admin';
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'e2e-admin-password';
const PASSWORD = 'correct horse battery';

export interface Person {
  ctx: BrowserContext;
  page: Page;
}

/** A new browser context signed up (or logged in) through the forms, left on the page it lands on. */
export async function enter(
  browser: Browser,
  mode: 'signup' | 'login',
  name: string,
  password = PASSWORD,
): Promise<Person> {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`/#/${mode}`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: mode === 'signup' ? 'Sign up' : 'Log in' }).click();
  // Password hashing is memory-hard on purpose: on a busy machine it takes a while.
  await expect(page.getByTestId('account-name')).toHaveText(name, { timeout: 60_000 });
  return { ctx, page };
}

/**
 * A signs up and creates a world (the creator is seated on creation); B signs up and joins it,
 * from the world's own page or from the lobby's row. Both end on the world's page.
 */
export async function worldOfTwo(
  browser: Browser,
  aName: string,
  bName: string,
  worldName: string,
  join: 'page' | 'lobby' = 'page',
): Promise<{ a: Person; b: Person; worldUrl: string }> {
  const a = await enter(browser, 'signup', aName);
  await a.page.getByLabel('Name', { exact: true }).fill(worldName);
  await a.page.getByRole('button', { name: 'Create world' }).click();
  await expect(a.page).toHaveURL(/#\/world\//);
  await expect(a.page.getByTestId('join-world')).toBeHidden();
  await expect(a.page.getByTestId('watching')).toBeHidden();
  const worldUrl = a.page.url();
  const b = await enter(browser, 'signup', bName);
  if (join === 'lobby') {
    await b.page
      .getByTestId('world-row')
      .filter({ hasText: worldName })
      .getByRole('button', { name: 'Join' })
      .click();
    await expect(b.page).toHaveURL(worldUrl);
  } else {
    await b.page.goto(worldUrl);
    await b.page.getByTestId('join-world').click();
  }
  await expect(b.page.getByTestId('join-world')).toBeHidden();
  await expect(b.page.getByTestId('watching')).toBeHidden();
  return { a, b, worldUrl };
}

/** The session cookie's name, as the server sets it (SESSION_COOKIE in @bke/protocol). */
const SESSION_COOKIE = 'bke_session';

/** A browser person's account as the drivers (goals.ts) take it: the same session, over HTTP. */
export async function accountOf(person: Person, name: string) {
  const cookie = (await person.ctx.cookies()).find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error(`${name} has no session cookie`);
  return { name, password: PASSWORD, cookie: `${cookie.name}=${cookie.value}` };
}

/** The admin, logged in, on the moderation page of the world named `worldName`. */
export async function moderate(browser: Browser, worldName: string): Promise<Person> {
  const admin = await enter(browser, 'login', ADMIN, ADMIN_PASSWORD);
  await admin.page.goto('/#/moderation');
  await admin.page.getByTestId('mod-world').filter({ hasText: worldName }).click();
  return admin;
}
