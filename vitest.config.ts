import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '~': path.resolve(import.meta.dirname) };

/**
 * pg-boss, running workers inside a test's process, records a job's outcome on its own promise
 * chain: when a fault test stops the primary under it, that bookkeeping fails with nobody to
 * catch it (a worker process would exit and be restarted; the job expires and runs again). Only
 * those are ignored: connection losses raised from inside pg-boss. Anything else still fails.
 */
function pgBossConnectionLoss(error: { message?: string; stack?: string; code?: string }): boolean {
  const lost =
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', '57P01', '57P02', '57P03', '08001', '08006'].includes(error.code ?? '') ||
    /connection terminated|terminating connection|ECONNREFUSED|no host accepts writes/i.test(error.message ?? '');
  return lost && /node_modules\/pg-boss\//.test(error.stack ?? '');
}

export default defineConfig({
  resolve: { alias },
  test: {
    onUnhandledError: (error) =>
      pgBossConnectionLoss(error as { message?: string; stack?: string }) ? false : undefined,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['server/**/*.test.ts', 'dev/**/*.test.ts', 'lib/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/*.fault.test.ts', 'node_modules/**'],
          environment: 'node',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['tests/**/*.integration.test.ts'],
          exclude: ['**/*.fault.test.ts', 'node_modules/**'],
          environment: 'node',
          globalSetup: ['dev/testing/global-setup.ts'],
          setupFiles: ['vitest.setup.integration.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One shared topology on a 2-core machine: files run one after another.
          fileParallelism: false,
        },
      },
      {
        resolve: { alias },
        test: {
          // Stops, pauses and delays real database servers under the running app; kills the
          // console under the real launcher.
          name: 'faults',
          include: ['tests/**/*.fault.test.ts'],
          environment: 'node',
          globalSetup: ['dev/testing/fault-setup.ts'],
          setupFiles: ['vitest.setup.integration.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
