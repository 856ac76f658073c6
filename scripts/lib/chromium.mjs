// Finds a Chromium or Chrome for the end-to-end tests: CHROMIUM_PATH when set, else a usual
// install place for this system; as root on Debian or Ubuntu it installs Debian's Chromium with
// apt-get. Anywhere else it says what to do (install one, or point CHROMIUM_PATH at it) and stops.
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

export function ensureChromium() {
  const found = findChromium();
  if ('explain' in found) {
    console.error(`[bke] ${found.explain}`);
    process.exit(1);
  }
  if (!found.install) return found.path;
  log('installing Chromium from Debian (apt-get install chromium)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium', 'fonts-dejavu-core'],
  ]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) {
      console.error(`[bke] apt-get ${args.join(' ')} failed; install Chromium by hand or set CHROMIUM_PATH.`);
      process.exit(1);
    }
  }
  return found.path;
}
