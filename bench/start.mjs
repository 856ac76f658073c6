// `npm run bench`: installs what is missing and generates the Prisma client (as `npm start` does, so
// that it works on a fresh clone), then runs the suite (run.ts) through tsx. Plain Node: it runs
// before anything is installed.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { bootstrap, ROOT } from '../scripts/lib/bootstrap.mjs';

const args = process.argv.slice(2);
if (!args.includes('--help') && !args.includes('-h')) bootstrap({ web: false, server: false });
const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/run.ts'), ...args], {
  cwd: ROOT,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
