// `prisma generate`, offline: the CLI insists on its schema-engine binary though `generate` never
// uses it, and any existing file at PRISMA_SCHEMA_ENGINE_BINARY satisfies the check.
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
