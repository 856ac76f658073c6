// `npm run test:e2e [-- <playwright arguments>]`: the browser tests alone. Sets up what is missing
// (as `npm start` does), finds Chromium, then runs Playwright in e2e/ against the compiled server on
// its own port and database (DATABASE_URL's server when set, else an embedded PostgreSQL).
import path from 'node:path';
import { bootstrap, log, ROOT, run } from './lib/bootstrap.mjs';
import { ensureChromium } from './lib/chromium.mjs';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(`usage: npm run test:e2e [-- <playwright test arguments>]
  e.g. npm run test:e2e -- tests/foundation.spec.ts
  Runs the end-to-end tests in Chromium (CHROMIUM_PATH, else /usr/bin/chromium); screenshots land in e2e/artifacts/.`);
  process.exit(0);
}

bootstrap();
const chromium = ensureChromium();
log(`end-to-end tests (Chromium at ${chromium})`);
const status = run(path.join(ROOT, 'e2e/node_modules/.bin/playwright'), ['test', ...args], {
  cwd: path.join(ROOT, 'e2e'),
  env: { ...process.env, CHROMIUM_PATH: chromium },
  allowFailure: true,
});
process.exit(status);
