// Compiles the server to JavaScript for production (`npm start`, the Docker image): one ES module
// per entry point in dist/, with the workspace packages (@bke/engine, @bke/map, @bke/protocol) and
// the generated Prisma client with its runtime bundled in, and every other npm dependency left to
// node_modules.
//
// Why esbuild rather than tsc: the workspace packages are TypeScript sources that Node cannot run,
// so tsc would have to compile and publish each package and rewrite their exports; esbuild bundles
// them in about a second (it is already in the lockfile, under Vite and tsx). Types are checked by
// `tsc --noEmit` (scripts/typecheck.mjs), not here.
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = new URL('./', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', here), 'utf8'));

rmSync(new URL('dist', here), { recursive: true, force: true });
const result = await build({
  // A file path, never `URL.pathname`: that keeps %20 for a space and a leading / before C:.
  absWorkingDir: fileURLToPath(here),
  entryPoints: {
    main: 'src/main.ts',
    migrate: 'src/cli/migrate.ts',
    admin: 'src/cli/admin.ts',
    backup: 'src/cli/backup.ts',
    restore: 'src/cli/restore.ts',
    rebuild: 'src/cli/rebuild.ts',
    'rebuild-worker': 'src/cli/rebuild-worker.ts',
    'bot-search-worker': 'src/bots/search-worker.ts',
    'replay-worker': 'src/worlds/replay-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Runtime dependencies load from node_modules, as installed (`pnpm deploy --prod` in the image).
  // Prisma's runtime is not one of them: it is bundled, with the one query compiler the generated
  // client loads (PostgreSQL's, about 4 MB), where its package holds one for every database it
  // supports (71 MB).
  external: Object.keys(pkg.dependencies),
  // Prisma's runtime is CommonJS (Node's export of it): bundled into ES modules, its `require` of
  // Node's own modules needs a real `require`.
  banner: {
    js: "import { createRequire as bundledRequire } from 'node:module'; const require = bundledRequire(import.meta.url);",
  },
  // Stack traces point into the sources (node --enable-source-maps); never served to anyone.
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  metafile: true,
});
// The password-hashing threads' task is plain JavaScript that each thread loads by file name
// (src/auth/hashing-pool.ts finds it in dist/).
copyFileSync(new URL('src/auth/scrypt-worker.mjs', here), new URL('dist/scrypt-worker.mjs', here));
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`server built: apps/server/dist (${Math.round(bytes / 1024)} KiB)`);
