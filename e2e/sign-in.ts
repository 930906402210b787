// Signing in as a demo user in the browser journeys. Credentials come from the demo the test
// stack seeded (its demo-credentials.json). No password is typed at the global address: the
// journeys sign in the way people do, at the region (the workspace's, or sfo1 for operators),
// and come back to the global address with the session handed over (server/auth/handoff.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, revealed } from './fixtures';
import './localhost-dns';

const dataDir = process.env.E2E_DATA_DIR ?? '.data/e2e';

interface DemoUser {
  email: string;
  password: string;
  org: string | null;
  role: string;
}

export function demoUser(email: string): DemoUser {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
    users: DemoUser[];
  };
  return creds.users.find((u) => u.email === email)!;
}

/** Fills and submits a region's sign-in form (the page must be showing it). */
export async function submitPassword(page: Page, email: string, password = demoUser(email).password): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** `http://{region}.localhost:{port}` for the journeys' base URL. */
export function regionOrigin(baseURL: string, region: string): string {
  return `http://${region}.localhost:${new URL(baseURL).port}`;
}

/**
 * Signs in from the global address's sign-in page and waits to land on `next` there: picks
 * `region` (the demo's organizations and operators all sign in at sfo1), types the password at
 * that region's page and comes back. (Naming the workspace instead goes through the directory,
 * 20 look-ups a minute per address: e2e/sign-in-handoff.spec.ts covers it.)
 */
export async function signIn(page: Page, email: string, next = '/arc', region = 'sfo1'): Promise<void> {
  const user = demoUser(email);
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByRole('link', { name: new RegExp(`^Sign in at .*\\(${region}\\)$`) }).click();
  await expect(page.getByLabel('Password')).toBeVisible();
  await submitPassword(page, email, user.password);
  await expect(page).toHaveURL(new RegExp(`^http://localhost:\\d+${next.replace(/\//g, '\\/')}$`));
  await revealed(page);
}
