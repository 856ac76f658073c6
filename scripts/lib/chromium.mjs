// Finds Debian's Chromium for the end-to-end tests, installing it with apt-get when we are root on
// Debian; otherwise says in one line how to get it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { log } from './bootstrap.mjs';

export function ensureChromium() {
  const wanted = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(wanted)) return wanted;
  const isRoot = process.getuid?.() === 0;
  const isDebian =
    existsSync('/etc/debian_version') || /debian/i.test(readFileSync('/etc/os-release', 'utf8'));
  if (process.env.CHROMIUM_PATH || !isRoot || !isDebian) {
    console.error(
      `[bke] Chromium not found at ${wanted}: install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
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
  return wanted;
}
