// `npm test`: set up what is missing, then lint, type-check, and run the unit, integration and
// end-to-end tests. Integration and e2e tests use DATABASE_URL when set, else an embedded PostgreSQL.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bootstrap, log, ROOT, run } from './lib/bootstrap.mjs';
import { ensureChromium } from './lib/chromium.mjs';

const USAGE = `usage: npm test [-- --database]
  Installs what is missing, then runs lint (biome), type checks, the unused-export check (knip),
  the unit, integration and web tests (vitest) and the browser tests (Playwright in Chromium).
  Integration tests use DATABASE_URL's server when set (a database per test file), else an
  embedded PostgreSQL. CHROMIUM_PATH picks the browser.
  --database  only what can go differently on another database: the integration tests (CI runs
              everything on the embedded database and this on PostgreSQL).`;
// Read by hand: this runs before the dependencies (zod among them) are installed.
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = args.filter((a) => a !== '--database');
if (unknown.length > 0) {
  console.error(`npm test: unknown argument ${JSON.stringify(unknown[0])}\n${USAGE}`);
  process.exit(2);
}
const databaseOnly = args.includes('--database');

const started = Date.now();
bootstrap();
const chromium = databaseOnly ? null : ensureChromium();

if (!databaseOnly) {
  log('lint and format (biome)');
  run('node_modules/.bin/biome', ['check', '.']);

  run(process.execPath, ['scripts/typecheck.mjs']);

  // Exports nothing imports (knip.json names each workspace's entry points): a dead export is code
  // that no test reaches and no reader can tell from the living.
  log('unused exports and files (knip)');
  run('node_modules/.bin/knip', ['--no-progress']);
}

const vitestReport = path.join(ROOT, '.data/test-results/vitest.json');
const database = process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded';
log(`${databaseOnly ? 'integration tests' : 'unit, web and integration tests'} (database: ${database})`);
const vitestStatus = run(
  'node_modules/.bin/vitest',
  [
    'run',
    ...(databaseOnly ? ['--project', 'integration'] : []),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestReport}`,
  ],
  { allowFailure: true },
);

// The browser tests run with the whole suite only: they drive one server through its pages, and
// what a database can change in that server the integration tests check on both databases, with
// real server processes and Socket.IO clients. A second browser pass took CI longer than all the
// integration tests on PostgreSQL.
const e2eReport = path.join(ROOT, 'e2e/artifacts/results.json');
rmSync(e2eReport, { force: true });
let e2eStatus = 0;
if (!databaseOnly) {
  log(`end-to-end tests (Chromium at ${chromium})`);
  e2eStatus = run(path.join(ROOT, 'e2e/node_modules/.bin/playwright'), ['test'], {
    cwd: path.join(ROOT, 'e2e'),
    env: { ...process.env, CHROMIUM_PATH: chromium },
    allowFailure: true,
  });
}

function counts(file, read) {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  return read(JSON.parse(readFileSync(file, 'utf8')));
}
const v = counts(vitestReport, (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests }));
const e = databaseOnly
  ? { passed: 0, failed: 0 }
  : counts(e2eReport, (r) => ({
      passed: r.stats.expected,
      failed: r.stats.unexpected + r.stats.flaky,
    }));
const failed =
  v.failed +
  e.failed +
  (vitestStatus !== 0 && v.failed === 0 ? 1 : 0) +
  (e2eStatus !== 0 && e.failed === 0 ? 1 : 0);
const seconds = Math.round((Date.now() - started) / 1000);
log(
  `vitest ${v.passed} passed, ${v.failed} failed; e2e ${e.passed} passed, ${e.failed} failed; ${seconds} s`,
);
console.log(`tests: ${v.passed + e.passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
