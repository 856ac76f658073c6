/**
 * The repository's root folder (the one holding prisma/), found by walking up from this module.
 * Run from source (apps/server/src) or from the bundle (apps/server/dist), or inside the image,
 * the walk finds the same folder; a fixed `../../..` would break as soon as a file moves.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'prisma', 'schema.prisma'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no prisma/schema.prisma above ${from}`);
  }
}

export const REPO_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
