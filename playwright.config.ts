// Browser journeys in Debian's Chromium against `npm start`'s own launcher (real databases,
// real `next start`), on a private port and data folder.
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.data/e2e';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/playwright',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // A web-first assertion waits this long: one sign-in is a password check, three redirects and a
  // server render, which on a loaded two-core machine may take longer than the default 5 s.
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : 'list',
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    // Its output goes to a file (the suite's console shows only tests; the digest names the file).
    command: 'mkdir -p test-results/logs && exec npx tsx scripts/start.ts > test-results/logs/e2e-app.log 2>&1',
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    env: {
      PORT: String(PORT),
      MERIDIAN_DATA_DIR: E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      WORKFLOW_STEP_MS: '500',
      // Self-serve sign-up is off by default; its journey (e2e/sign-up.spec.ts) needs it open.
      MERIDIAN_SIGNUP: 'on',
    },
  },
});
