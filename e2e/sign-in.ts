// Signing in as a demo user in the browser journeys. Credentials come from the demo the test
// stack seeded (its demo-credentials.json).
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

const dataDir = process.env.E2E_DATA_DIR ?? '.data/e2e';

export function demoUser(email: string): { email: string; password: string } {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
    users: { email: string; password: string }[];
  };
  return creds.users.find((u) => u.email === email)!;
}

/** Signs in through the sign-in page and waits to land on `next`. */
export async function signIn(page: Page, email: string, next = '/arc'): Promise<void> {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(demoUser(email).password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/\//g, '\\/')}$`));
}
