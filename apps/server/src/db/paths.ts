import path from 'node:path';
import { REPO_ROOT } from '../root.ts';

/** The repository's prisma/ folder: the schema and its committed migrations. */
const PRISMA_DIR = path.join(REPO_ROOT, 'prisma');
export const SCHEMA_PATH = path.join(PRISMA_DIR, 'schema.prisma');
export const MIGRATIONS_DIR = path.join(PRISMA_DIR, 'migrations');
