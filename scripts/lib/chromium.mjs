// Finds a Chromium or Chrome for the end-to-end tests: CHROMIUM_PATH when set, else a usual
// install place for this system; as root on Debian or Ubuntu, when none is there, it installs
// Debian's Chromium with apt-get, saying so, and only if that installs new packages without
// upgrading any installed one (apt is asked first, in a dry run): a test command must never change
// the versions of what the machine already runs. Anywhere else it says what to do (install one, or
// point CHROMIUM_PATH at it) and stops.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { log } from './bootstrap.mjs';

const PLACES = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  ],
};

function osRelease() {
  try {
    return readFileSync('/etc/os-release', 'utf8');
  } catch {
    return '';
  }
}

/**
 * What to do, without doing it: `{ path }` when a browser is there, `{ install: 'apt' }` when we may
 * install Debian's, else `{ explain }` with the words to print. Everything it looks at is passed in.
 */
export function findChromium({
  env = process.env,
  platform = process.platform,
  exists = existsSync,
  isRoot = process.getuid?.() === 0,
  release = osRelease,
  hasApt = () => exists('/usr/bin/apt-get'),
} = {}) {
  const set = env.CHROMIUM_PATH;
  if (set) {
    if (exists(set)) return { path: set };
    return {
      explain: `CHROMIUM_PATH=${set}, but there is no file there. Point it at a Chrome or Chromium executable.`,
    };
  }
  const found = (PLACES[platform] ?? []).find((p) => exists(p));
  if (found) return { path: found };
  const debian = platform === 'linux' && (exists('/etc/debian_version') || /debian|ubuntu/i.test(release()));
  if (debian && isRoot && hasApt()) return { install: 'apt', path: '/usr/bin/chromium' };
  const how =
    platform === 'darwin'
      ? 'Install Google Chrome (or Chromium), or set CHROMIUM_PATH, e.g.\n  CHROMIUM_PATH="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" npm test'
      : platform === 'win32'
        ? 'Install Google Chrome, or set CHROMIUM_PATH to its chrome.exe.'
        : debian
          ? 'Install it (sudo apt-get install -y chromium), or set CHROMIUM_PATH to a Chrome or Chromium executable.'
          : "Install Chromium or Chrome with your system's package manager, or set CHROMIUM_PATH to its executable.";
  return { explain: `No Chromium or Chrome found for the browser tests. ${how}` };
}

/** The packages the browser tests install on Debian: the browser and a font for its pages. */
const APT_PACKAGES = ['chromium', 'fonts-dejavu-core'];

/**
 * The installed packages a dry run of `apt-get install` (its `-s` output) would upgrade: its lines
 * `Inst name [installed version] (new version …)`; a package new to the machine has no brackets.
 */
export function upgradesIn(simulation) {
  return simulation
    .split('\n')
    .map((line) => /^Inst (\S+) \[([^\]]+)\]/.exec(line))
    .filter((m) => m !== null)
    .map((m) => `${m[1]} ${m[2]}`);
}

export function ensureChromium() {
  const found = findChromium();
  if ('explain' in found) {
    console.error(`[bke] ${found.explain}`);
    process.exit(1);
  }
  if (!found.install) return found.path;
  const install = ['install', '-y', '-qq', '--no-upgrade', ...APT_PACKAGES];
  log(
    `no Chromium found for the browser tests: installing Debian's ${APT_PACKAGES.join(' and ')} with apt-get (apt-get update, then apt-get ${install.join(' ')}), which upgrades none of the installed packages`,
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args, stdio = 'inherit') => {
    const r = spawnSync('apt-get', args, { stdio, env, encoding: 'utf8' });
    if (r.status !== 0) {
      console.error(`[bke] apt-get ${args.join(' ')} failed; install Chromium by hand or set CHROMIUM_PATH.`);
      process.exit(1);
    }
    return r.stdout ?? '';
  };
  apt(['update', '-qq']);
  const upgrades = upgradesIn(apt(['install', '-s', '--no-upgrade', ...APT_PACKAGES], 'pipe'));
  if (upgrades.length > 0) {
    console.error(
      `[bke] Installing Chromium would upgrade packages already on this machine (${upgrades.join(', ')}); the tests leave that to you. Install it yourself (apt-get install chromium), or set CHROMIUM_PATH to a Chrome or Chromium executable.`,
    );
    process.exit(1);
  }
  apt(install);
  return found.path;
}
