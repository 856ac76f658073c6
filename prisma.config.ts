// Used by the Prisma CLI for `prisma generate` only; migrations are applied by the server itself.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
