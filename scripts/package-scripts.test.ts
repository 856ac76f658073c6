/**
 * Every script in the root package.json runs: each is started exactly as `npm run <name>` starts it,
 * with `--help` added, and must answer with its usage and exit 0 (a script pointing at a file that is
 * gone fails here). The workspace packages' scripts must at least name files that exist.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { NODE_MIN, nodeAtLeast } from './lib/bootstrap.mjs';
import { findChromium, upgradesIn } from './lib/chromium.mjs';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const scriptsOf = (dir: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')).scripts ?? {};

/** The files a script runs with node or tsx. */
const targets = (command: string) =>
  [...command.matchAll(/(?:^|&&\s*|\s)(?:node|tsx)\s+(?:--\S+\s+)*([\w./-]+\.(?:mjs|js|ts))/g)].map(
    (m) => m[1] ?? '',
  );

describe('root package.json scripts', () => {
  const scripts = Object.entries(scriptsOf('.'));

  it('name only files that exist', () => {
    expect(targets('node scripts/e2e.mjs')).toEqual(['scripts/e2e.mjs']);
    expect(targets('node --import tsx apps/server/src/main.ts')).toEqual(['apps/server/src/main.ts']);
    for (const [name, command] of scripts)
      for (const file of targets(command))
        expect(existsSync(path.join(ROOT, file)), `${name}: ${file}`).toBe(true);
  });

  it.each(scripts)('%s answers --help', { timeout: 120_000 }, async (name) => {
    const { stdout } = await run('npm', ['run', '-s', name, '--', '--help'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 110_000,
    });
    expect(stdout.toLowerCase()).toMatch(/usage|options|--help/);
  });
});

describe('workspace packages’ scripts', () => {
  for (const dir of [
    'apps/server',
    'apps/web',
    'packages/engine',
    'packages/map',
    'packages/protocol',
    'e2e',
    'bench',
  ])
    it(`${dir}: name only files that exist`, () => {
      if (!existsSync(path.join(ROOT, dir, 'package.json'))) return;
      for (const [name, command] of Object.entries(scriptsOf(dir)))
        for (const file of targets(command))
          expect(existsSync(path.join(ROOT, dir, file)), `${dir} ${name}: ${file}`).toBe(true);
    });
});

describe('finding a browser for npm test', () => {
  const none = () => false;
  it('on macOS without Chrome: explains CHROMIUM_PATH instead of reading /etc/os-release', () => {
    const r = findChromium({
      env: {},
      platform: 'darwin',
      exists: none,
      isRoot: false,
      release: () => {
        throw new Error('no /etc/os-release on macOS');
      },
    });
    expect(r).toMatchObject({ explain: expect.stringContaining('CHROMIUM_PATH') });
  });

  it('on macOS with Chrome installed: uses it', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findChromium({ env: {}, platform: 'darwin', exists: (p: string) => p === chrome })).toEqual({
      path: chrome,
    });
  });

  it('on Debian as a user without Chromium: says how to install it, does not run apt-get', () => {
    const r = findChromium({
      env: {},
      platform: 'linux',
      exists: (p: string) => p === '/etc/debian_version',
      isRoot: false,
    });
    expect(r).toMatchObject({
      explain: expect.stringMatching(/apt-get install -y chromium.*CHROMIUM_PATH/s),
    });
  });

  it('on Debian as root: installs Debian’s Chromium', () => {
    const r = findChromium({
      env: {},
      platform: 'linux',
      exists: (p: string) => p === '/etc/debian_version' || p === '/usr/bin/apt-get',
      isRoot: true,
    });
    expect(r).toEqual({ install: 'apt', path: '/usr/bin/chromium' });
  });

  it('reads the packages an install would upgrade from apt-get’s dry run, and only those', () => {
    const dryRun = [
      'Reading package lists...',
      'The following NEW packages will be installed:',
      '  chromium chromium-common',
      'Inst chromium-common (142.0.7444.175-1~deb12u1 Debian-Security:12/stable-security [amd64])',
      'Inst libnss3 [2:3.87.1-1] (2:3.87.1-1+deb12u1 Debian-Security:12/stable-security [amd64])',
      'Inst chromium (142.0.7444.175-1~deb12u1 Debian-Security:12/stable-security [amd64])',
      'Conf chromium-common (142.0.7444.175-1~deb12u1 Debian-Security:12/stable-security [amd64])',
    ].join('\n');
    expect(upgradesIn(dryRun)).toEqual(['libnss3 2:3.87.1-1']);
    expect(upgradesIn('Inst chromium (142.0 Debian:12/stable [amd64])\n')).toEqual([]);
  });

  it('CHROMIUM_PATH wins, and a wrong one is named; an empty one counts as unset', () => {
    expect(
      findChromium({ env: { CHROMIUM_PATH: '/opt/chrome' }, exists: (p: string) => p === '/opt/chrome' }),
    ).toEqual({ path: '/opt/chrome' });
    expect(findChromium({ env: { CHROMIUM_PATH: '/nope' }, exists: none })).toMatchObject({
      explain: expect.stringContaining('/nope'),
    });
    expect(
      findChromium({
        env: { CHROMIUM_PATH: '' },
        platform: 'linux',
        exists: (p: string) => p === '/usr/bin/chromium',
      }),
    ).toEqual({ path: '/usr/bin/chromium' });
  });
});

describe('the Node version check', () => {
  it('compares the full version with the oldest the dependencies accept', () => {
    expect(NODE_MIN).toBe('20.19.0');
    for (const ok of ['20.19.0', 'v20.19.1', '20.20.2', '22.0.0', '24.3.1'])
      expect(nodeAtLeast(ok), ok).toBe(true);
    for (const old of ['20.18.3', 'v20.11.1', '18.20.4', '19.9.0']) expect(nodeAtLeast(old), old).toBe(false);
  });

  it('is what package.json declares', () => {
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node).toBe(
      `>=${NODE_MIN}`,
    );
  });
});
