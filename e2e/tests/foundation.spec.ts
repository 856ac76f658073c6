import { expect, test } from '@playwright/test';

test('the home page loads and its socket connects', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('BKE Online');
  await expect(page.getByRole('heading', { name: 'BKE Online' })).toBeVisible();
  await expect(page.getByTestId('connection-status')).toHaveText(/Connected/);
  await page.screenshot({ path: 'artifacts/foundation-connected.png', fullPage: true });
});

test('the app runs under its content-security policy without a single violation', async ({ page }) => {
  const violations: string[] = [];
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`csp-violation ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    ),
  );
  page.on('console', (m) => {
    if (m.type() === 'error' && /csp-violation|Content Security Policy/.test(m.text()))
      violations.push(m.text());
  });
  const res = await page.goto('/');
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByTestId('connection-status')).toHaveText(/Connected/);
  // Sign up, make a world and open it: the lobby, the map and the socket all run under the policy.
  const name = `csp${Date.now() % 1_000_000}`;
  await page.goto('/#/signup');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password').fill('password123');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('link', { name })).toBeVisible();
  const worldId = await page.evaluate(async () => {
    const post = (path: string, body: unknown) =>
      fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-bke-csrf': '1' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    const w = await post('/api/worlds', { name: 'Policy' });
    await post(`/api/worlds/${w.world.id}/join`, {});
    return w.world.id as string;
  });
  await page.goto(`/#/world/${worldId}`);
  await expect(page.getByRole('heading', { name: 'Start position' })).toBeVisible();
  // The board is its own lazily loaded chunk: it must load and draw under the policy too.
  await expect(page.getByText('Unrolling the map…')).toHaveCount(0, { timeout: 30_000 });
  await page.getByRole('button', { name: 'SLAV 1' }).click();
  await page.screenshot({ path: 'artifacts/foundation-csp-world.png' });
  expect(violations).toEqual([]);
});

test("the world page asks for the world's record once while the bots' moves stream in", async ({ page }) => {
  // The page keeps one socket from its first load: watched from the start.
  let patches = 0;
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string' && f.payload.includes('"world/patch"')) patches++;
    }),
  );
  const name = `rec${Date.now() % 1_000_000}`;
  await page.goto('/#/signup');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password').fill('password123');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('link', { name })).toBeVisible({ timeout: 60_000 });
  // A world of bots, watched: their moves change the view many times while the page opens.
  const worldId = await page.evaluate(async () => {
    const r = await fetch('/api/worlds', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-bke-csrf': '1' },
      body: JSON.stringify({ name: 'Bots at play', join: false, bots: ['easy', 'easy', 'easy'] }),
    }).then((r) => r.json());
    return r.world.id as string;
  });
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/worlds/${worldId}`) asked.push(r.url());
  });
  await page.goto(`/#/world/${worldId}`);
  // The world's name comes from the record; then more moves arrive, each replacing the view.
  await expect(page.getByText('Bots at play').first()).toBeVisible({ timeout: 30_000 });
  const after = patches;
  await expect.poll(() => patches, { timeout: 30_000 }).toBeGreaterThanOrEqual(after + 3);
  expect(asked).toHaveLength(1);
});
