// The production set: what the Docker image runs, assembled into one folder laid out as the
// repository is (so the server finds prisma/ and apps/web/dist as it does here):
//
//   <dest>/apps/server/dist           the compiled server (apps/server/build.mjs)
//   <dest>/apps/server/node_modules   the server's production dependencies alone (`pnpm deploy --prod`)
//   <dest>/apps/web/dist              the built web app, when it is built
//   <dest>/prisma                     the schema and its migrations, applied at start-up
//
// The Dockerfile's build stage calls it, and so does the test that starts the server from such a
// folder (apps/server/test/production-set.int.test.ts). Plain Node: it runs before anything is
// installed. Builds nothing itself: `bootstrap()` first.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT, runPnpm } from './bootstrap.mjs';

export function assembleProduction(dest) {
  const server = path.join(dest, 'apps/server');
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(path.dirname(server), { recursive: true });
  // `--legacy`: plain folders rather than pnpm 10's injected workspace packages, which the server
  // does not need (its bundle holds the workspace packages). The store already holds every
  // package of the lockfile after an install: nothing needs fetching.
  runPnpm(['--filter', '@bke/server', 'deploy', '--legacy', '--prod', '--prefer-offline', server]);
  // The deploy copies the package's files; the image runs only the compiled server.
  for (const unused of ['src', 'test', 'build.mjs', 'tsconfig.json'])
    rmSync(path.join(server, unused), { recursive: true, force: true });
  cpSync(path.join(ROOT, 'apps/server/dist'), path.join(server, 'dist'), { recursive: true });
  cpSync(path.join(ROOT, 'prisma'), path.join(dest, 'prisma'), { recursive: true });
  const web = path.join(ROOT, 'apps/web/dist');
  if (existsSync(web)) cpSync(web, path.join(dest, 'apps/web/dist'), { recursive: true });
}
