// Set-up shared by `npm start` and `npm test`. Plain Node, no dependencies: it runs before anything is
// installed. Each step records a hash of its inputs and is skipped when nothing changed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PNPM_VERSION = '10.34.9';

/**
 * Where the set-up's messages and its tools' output go: standard output, or standard error for a
 * command whose standard output is its answer (`npm run rebuild` prints one JSON line per world).
 */
const outputTo = (to) => (to === 'stderr' ? { stdio: ['inherit', 2, 2] } : {});

export function log(message, to = 'stdout') {
  (to === 'stderr' ? console.error : console.log)(`\x1b[36m[bke]\x1b[0m ${message}`);
}

/** Runs a command in the repository, streaming its output; exits the process if it fails. */
export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0 && !options.allowFailure) {
    console.error(`[bke] failed: ${cmd} ${args.join(' ')}`);
    process.exit(result.status ?? 1);
  }
  return result.status ?? 1;
}

let pnpm;
/** pnpm as installed, or fetched through npx when it is missing or of another major version. */
function pnpmCommand() {
  if (pnpm) return pnpm;
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  pnpm =
    probe.status === 0 && probe.stdout.trim().startsWith('10.')
      ? ['pnpm']
      : ['npx', '-y', `pnpm@${PNPM_VERSION}`];
  return pnpm;
}

export function runPnpm(args, options) {
  const [cmd, ...pre] = pnpmCommand();
  return run(cmd, [...pre, ...args], options);
}

function listFiles(rel) {
  const abs = path.join(ROOT, rel);
  if (!existsSync(abs)) return [];
  if (statSync(abs).isFile()) return [rel];
  return listFolder(rel);
}

/**
 * The files under folder `rel`, sorted, told apart by their folder entries: a file or a folder
 * needs no look of its own (two system calls each, a third of `npm run rebuild`'s set-up check);
 * a link is followed as `listFiles` follows it.
 */
function listFolder(rel) {
  return readdirSync(path.join(ROOT, rel), { withFileTypes: true })
    .filter((e) => !['node_modules', 'dist', '.data'].includes(e.name))
    .flatMap((e) => {
      const child = path.join(rel, e.name);
      if (e.isDirectory()) return listFolder(child);
      return e.isFile() ? [child] : listFiles(child);
    })
    .sort();
}

function hashInputs(paths) {
  const hash = createHash('sha256');
  for (const file of paths.flatMap(listFiles)) {
    hash.update(file);
    hash.update(readFileSync(path.join(ROOT, file)));
  }
  return hash.digest('hex');
}

/** Runs `action` unless the stamp file already records the same input hash. */
function step(name, stampFile, inputs, action, to = 'stdout') {
  const stamp = path.join(ROOT, stampFile);
  const digest = hashInputs(inputs);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  log(name, to);
  action();
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, digest);
}

const PACKAGE_FILES = [
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'apps',
  'packages',
  'e2e',
  'bench',
].flatMap((p) => (p.includes('.') ? [p] : listFiles(p).filter((f) => f.endsWith('package.json'))));

/** `to`: where messages and the tools' output go, 'stdout' or 'stderr' (as for every step below). */
function ensureInstalled(to = 'stdout') {
  step(
    'installing dependencies',
    'node_modules/.bke-install',
    PACKAGE_FILES,
    () => runPnpm(['install', '--frozen-lockfile', '--reporter=append-only'], outputTo(to)),
    to,
  );
}

function ensurePrismaClient(to = 'stdout') {
  step(
    'generating the Prisma client',
    'apps/server/src/generated/.bke-prisma',
    ['prisma/schema.prisma', 'pnpm-lock.yaml'],
    () =>
      runPnpm(
        ['--filter', '@bke/server', 'exec', 'prisma', 'generate', '--schema', '../../prisma/schema.prisma'],
        {
          // Prisma's CLI wants a native engine only for commands we do not use; generation needs none.
          env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
          ...outputTo(to),
        },
      ),
    to,
  );
}

function ensureWebBuilt() {
  step(
    'building the web app',
    'apps/web/dist/.bke-build',
    [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'packages/engine/src',
      'packages/protocol/src',
      'packages/map/src',
      'packages/map/generated',
      'pnpm-lock.yaml',
    ],
    () => runPnpm(['--filter', '@bke/web', 'run', 'build']),
  );
}

function ensureServerBuilt(to = 'stdout') {
  step(
    'building the server',
    'apps/server/dist/.bke-build',
    [
      'apps/server/src',
      'apps/server/build.mjs',
      'apps/server/package.json',
      'packages/engine/src',
      'packages/protocol/src',
      'packages/map/src',
      'packages/map/generated',
      'pnpm-lock.yaml',
    ],
    () => runPnpm(['--filter', '@bke/server', 'run', 'build'], outputTo(to)),
    to,
  );
}

/** The oldest Node the dependencies accept (Prisma 7, Vite 8 and jsdom 29 need 20.19). */
export const NODE_MIN = '20.19.0';

/** Whether version `v` ("20.19.1", "v22.3.0") is at least `min`, comparing major, minor and patch. */
export function nodeAtLeast(v, min = NODE_MIN) {
  const a = v.replace(/^v/, '').split('.').map(Number);
  const b = min.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

/**
 * Windows is served through WSL2, not natively: these scripts start pnpm and the tools in
 * node_modules/.bin without a shell, which on Windows finds neither (they are .cmd files there), and
 * nobody runs the tests on Windows. docs/development.md says so; this says it before anything fails.
 */
function checkPlatform(platform = process.platform) {
  if (platform !== 'win32') return;
  console.error(
    'BKE Online runs on Linux and macOS. On Windows, use WSL2: install Ubuntu from the Microsoft Store, clone the repository inside it (not under /mnt/c), and run npm start there. See docs/development.md, "The two commands".',
  );
  process.exit(1);
}

function checkNode() {
  checkPlatform();
  if (nodeAtLeast(process.versions.node)) return;
  console.error(
    `BKE Online needs Node ${NODE_MIN} or newer; this is Node ${process.versions.node}. Install a current Node 20, 22 or 24 (https://nodejs.org).`,
  );
  process.exit(1);
}

export function bootstrap({ web = true, server = true, to = 'stdout' } = {}) {
  checkNode();
  ensureInstalled(to);
  ensurePrismaClient(to);
  if (web) ensureWebBuilt();
  if (server) ensureServerBuilt(to);
}
