import { fileURLToPath } from 'node:url';

/** The repository's prisma/ folder: the schema and its committed migrations. */
export const PRISMA_DIR = fileURLToPath(new URL('../../../../prisma/', import.meta.url));
export const SCHEMA_PATH = `${PRISMA_DIR}schema.prisma`;
export const MIGRATIONS_DIR = `${PRISMA_DIR}migrations`;
