// `npm start`: set up what is missing (install, generate, build the web app and the server), then
// run the compiled server (embedded PostgreSQL unless DATABASE_URL). `npm start -- --help` says so.
import { spawn } from 'node:child_process';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';
import { SERVER_NODE_FLAGS } from './lib/server-flags.mjs';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: npm start
  Installs what is missing, builds the web app and the server (apps/server/dist), then serves
  http://localhost:3000 on the embedded database, or on DATABASE_URL. Settings: docs/configuration.md.`);
  process.exit(0);
}

bootstrap();

const server = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, '--enable-source-maps', 'apps/server/dist/main.js'],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env: process.env,
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
