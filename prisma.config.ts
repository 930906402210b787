// Prisma CLI configuration. The app itself never reads this: server/db/topology
// hands it the primary's URL. The fallback URL only lets `prisma generate` run
// on a machine with no database configured.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url: process.env.DATABASE_URL ?? 'postgresql://meridian@127.0.0.1:5432/meridian',
  },
});
