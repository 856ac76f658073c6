/**
 * File URLs become file paths through `fileURLToPath`, never through `URL.pathname`: the pathname
 * keeps `%20` for a space (so `npm start` failed in any folder with a space in its path) and, on
 * Windows, a `/` before the drive letter; and a path glued after `file://` is not the URL Node
 * gives the module (that one escapes the space). Every tracked script and source file is read for
 * both patterns.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const PATHNAME_OF_FILE_URL = /new URL\([^()]*import\.meta\.url\)\.pathname|`file:\/\/\$\{/;

describe('file paths', () => {
  it('come from fileURLToPath, not from a file URL’s pathname', () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.mts', '*.mjs', '*.js', '*.cjs', '*.svelte'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      // This file names both patterns, as examples.
      .filter((f) => f !== '' && f !== 'scripts/portable-paths.test.ts');
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((f) =>
      PATHNAME_OF_FILE_URL.test(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
    expect(PATHNAME_OF_FILE_URL.test("new URL('../..', import.meta.url).pathname")).toBe(true);
    expect(PATHNAME_OF_FILE_URL.test(`import.meta.url === \`file://\${process.argv[1]}\``)).toBe(true);
  });
});
