// `npm run rebuild`: the rebuild compiled, as `npm start` runs the server. What is missing is
// installed and generated, the server and its command-line tools are built into apps/server/dist
// when their sources changed (skipped when they did not, as for `npm start`), then the compiled
// rebuild runs in this very process, its worker threads with it: the command's time and memory are
// its own. Usage, arguments and exit codes are the rebuild's (apps/server/src/cli/rebuild.ts).
// Plain Node: it runs before anything is installed. The set-up's messages go to standard error;
// standard output is the rebuild's report, one JSON line per world.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';

bootstrap({ web: false, server: true, to: 'stderr' });
await import(pathToFileURL(path.join(ROOT, 'apps/server/dist/rebuild.js')).href);
