/**
 * File URLs become file paths through `fileURLToPath`, never through `URL.pathname`: the pathname
 * keeps `%20` for a space (so `npm start` failed in any folder with a space in its path) and, on
 * Windows, a `/` before the drive letter. Every tracked script and source file is read for the
 * pattern `new URL(…, import.meta.url).pathname`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const PATHNAME_OF_FILE_URL = /new URL\([^()]*import\.meta\.url\)\.pathname/;

describe('file paths', () => {
  it('come from fileURLToPath, not from a file URL’s pathname', () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.mts', '*.mjs', '*.js', '*.cjs', '*.svelte'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((f) =>
      PATHNAME_OF_FILE_URL.test(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
    expect(PATHNAME_OF_FILE_URL.test("new URL('../..', import.meta.url).pathname")).toBe(true);
  });
});
