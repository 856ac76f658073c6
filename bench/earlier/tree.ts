/**
 * The code before the work on long worlds, kept runnable by git itself: the commit is extracted
 * from the repository's history (`git archive`) into .data/bench-earlier/<sha>/tree (git-ignored)
 * and installed the way that tree's own `npm run bench` did it (its bench/start.mjs: its
 * scripts/lib/bootstrap.mjs, `pnpm install --frozen-lockfile` and the Prisma client generated).
 * Both steps are cached under the sha: a second run finds the tree and its install in place.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../fixtures/fixture.ts';

/**
 * The first parent of 907c950 ("engine state holds the present: the record sheet and finished
 * cycles leave the state"), the first commit of the work on long worlds. No commit of that work
 * before it changed the rebuild (apps/server/src/worlds/rebuild.ts, apps/server/src/cli/rebuild.ts;
 * 907c950 itself is the first to), so this is the rebuild as it was before that work began.
 */
export const EARLIER_COMMIT = '481e9cab83cdd39ec6bcac9e3deb29dbe8dc435d';
export const EARLIER_LABEL = `the code before the long-world work (${EARLIER_COMMIT.slice(0, 7)})`;

const HOME = path.join(ROOT, '.data/bench-earlier', EARLIER_COMMIT);
const TREE = path.join(HOME, 'tree');
const EXTRACTED = path.join(HOME, 'extracted');

export type EarlierTree = { ok: true; root: string; seconds: number } | { ok: false; reason: string };

interface Ran {
  code: number | null;
  stdout: Buffer;
  output: string;
}

/**
 * Runs a command to its end: its standard output kept as bytes (a tar), and as text with its
 * standard error (a failure's words) unless it is binary.
 */
function run(
  cmd: string,
  args: string[],
  cwd: string,
  io: { input?: Buffer; binary?: boolean } = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, {
      cwd,
      env: process.env,
      stdio: 'pipe',
    });
    const out: Buffer[] = [];
    let text = '';
    p.stdout.on('data', (d: Buffer) => {
      out.push(d);
      if (!io.binary) text += d;
    });
    p.stderr.on('data', (d) => {
      text += d;
    });
    p.on('error', (e) => resolve({ code: -1, stdout: Buffer.alloc(0), output: String(e) }));
    p.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), output: text }));
    p.stdin.end(io.input);
  });
}

/** The last line of a command's output that says something (for the table). */
const lastWords = (text: string): string =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-3)
    .join(' / ')
    .slice(0, 300);

async function extract(): Promise<string | null> {
  if (existsSync(EXTRACTED)) return null;
  const inside = await run('git', ['rev-parse', '--is-inside-work-tree'], ROOT);
  if (inside.code !== 0)
    return `this checkout has no git history to take ${EARLIER_COMMIT.slice(0, 7)} from (${lastWords(inside.output)})`;
  const has = await run('git', ['cat-file', '-e', `${EARLIER_COMMIT}^{commit}`], ROOT);
  if (has.code !== 0) {
    const shallow = await run('git', ['rev-parse', '--is-shallow-repository'], ROOT);
    return shallow.stdout.toString().trim() === 'true'
      ? `commit ${EARLIER_COMMIT.slice(0, 7)} is not in this shallow clone (git fetch --unshallow brings it)`
      : `commit ${EARLIER_COMMIT.slice(0, 7)} is not in this repository's history`;
  }
  const tar = await run('git', ['archive', '--format=tar', EARLIER_COMMIT], ROOT, { binary: true });
  if (tar.code !== 0) return `git archive ${EARLIER_COMMIT.slice(0, 7)} failed: ${lastWords(tar.output)}`;
  // Unpacked beside the tree and moved into place whole: a run stopped half-way leaves no half tree.
  const part = `${TREE}.part`;
  rmSync(part, { recursive: true, force: true });
  rmSync(TREE, { recursive: true, force: true });
  mkdirSync(part, { recursive: true });
  const untar = await run('tar', ['-x', '-C', part], ROOT, { input: tar.stdout });
  if (untar.code !== 0) return `unpacking ${EARLIER_COMMIT.slice(0, 7)} failed: ${lastWords(untar.output)}`;
  renameSync(part, TREE);
  writeFileSync(EXTRACTED, `${new Date().toISOString()}\n`);
  return null;
}

/** The earlier tree, extracted and installed (or the reason it cannot be). */
export async function prepareEarlierTree(): Promise<EarlierTree> {
  const t0 = performance.now();
  const failed = await extract();
  if (failed) return { ok: false, reason: failed };
  // That tree's own bootstrap, as its bench/start.mjs ran it; it skips what its stamps say is done.
  const install = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import { bootstrap } from './scripts/lib/bootstrap.mjs'; bootstrap({ web: false, server: false });",
    ],
    TREE,
  );
  if (install.code !== 0)
    return {
      ok: false,
      reason: `installing ${EARLIER_COMMIT.slice(0, 7)}'s dependencies failed (exit ${install.code}): ${lastWords(install.output)}`,
    };
  return { ok: true, root: TREE, seconds: (performance.now() - t0) / 1000 };
}
