// `npm start`: set up what is missing, then run the server (embedded PostgreSQL unless DATABASE_URL).
import { spawn } from 'node:child_process';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';

bootstrap();

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
