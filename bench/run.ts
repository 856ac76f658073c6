/**
 * `npm run bench`: runs every benchmark script in this folder (each `*.ts` file except this one and
 * files starting with `_`), one after another in its own process so they do not disturb each other.
 * Each script measures its metric and the bare baseline in the same run, prints its ratios with PASS or
 * FAIL, writes its JSON result under bench/results/, and exits non-zero on a FAIL.
 * `npm run bench -- engine` runs only the scripts whose name contains "engine".
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: npm run bench [-- <name filter>]
  Runs every benchmark in bench/ (or those whose file name contains the filter), each in its own process.`);
  process.exit(0);
}

const here = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv[2] ?? '';
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_') && f.includes(filter))
  .sort();

if (scripts.length === 0) {
  console.error(`no benchmark matches "${filter}"`);
  process.exit(2);
}
const failed: string[] = [];
for (const script of scripts) {
  console.log(`\n=== ${script} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `${here}${script}`], { stdio: 'inherit' });
  if (r.status !== 0) failed.push(script);
}
console.log(
  `\nbench: ${scripts.length - failed.length} passed, ${failed.length} failed${failed.length ? ` (${failed.join(', ')})` : ''}`,
);
process.exit(failed.length ? 1 : 0);
