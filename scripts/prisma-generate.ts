// `prisma generate`, runnable offline: Prisma's CLI insists on locating its schema-engine
// binary even though `generate` never uses it, and that binary can't be downloaded on every
// machine. Pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file satisfies the check.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const r = spawnSync(process.execPath, [path.resolve('node_modules/prisma/build/index.js'), 'generate'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
process.exit(r.status ?? 1);
