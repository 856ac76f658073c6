// Type-checks every package with tsc, and the Svelte app with svelte-check.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { log, ROOT, run } from './lib/bootstrap.mjs';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log('usage: npm run typecheck   (tsc --noEmit on every package, svelte-check on apps/web)');
  process.exit(0);
}

const projects = [
  'packages/protocol',
  'packages/map',
  'packages/engine',
  'apps/server',
  'e2e',
  'bench',
].filter((p) => existsSync(path.join(ROOT, p, 'tsconfig.json')));
for (const p of projects) {
  log(`tsc ${p}`);
  run('node_modules/.bin/tsc', ['-p', p, '--noEmit']);
}
log('svelte-check apps/web');
run(
  path.join(ROOT, 'apps/web/node_modules/.bin/svelte-check'),
  ['--tsconfig', './tsconfig.json', '--fail-on-warnings', '--output', 'human'],
  {
    cwd: path.join(ROOT, 'apps/web'),
  },
);
