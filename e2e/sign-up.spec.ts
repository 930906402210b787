// Self-serve sign-up (MERIDIAN_SIGNUP=on, as the journeys run): from a region's sign-in page a
// person creates a workspace there, is its admin, and signs in to it; a taken slug is said at its
// field; the global address sends people to a region to sign up. Desktop and phone, axe, screenshots.
// (Named to run after the specs that count the demo's two organizations.)
import { expectAccessible, shot } from './checks';
import { expect, revealed, test } from './fixtures';
import { regionOrigin, submitPassword } from './sign-in';

const PASSWORD = 'a long enough password for this';

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`a person signs up at sfo1 and signs in to the new workspace (${viewport.name})`, async ({ page, baseURL }) => {
    await page.setViewportSize(viewport);
    const stamp = Date.now().toString(36);
    const slug = `self-${viewport.name}-${stamp}`;
    const email = `founder-${viewport.name}-${stamp}@signup.test`;
    const sfo1 = regionOrigin(baseURL!, 'sfo1');

    // The global address: sign up at a region.
    await page.goto('/sign-up');
    await expect(page.getByRole('link', { name: 'San Francisco (sfo1)' })).toBeVisible();

    await page.goto(`${sfo1}/sign-in`);
    await page.getByRole('link', { name: 'Create one here' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Create your workspace' })).toBeVisible();
    await page.getByLabel('Organization name').fill(`Self ${viewport.name}`);
    await page.getByLabel('Workspace').fill(slug);
    await page.getByLabel('Your name').fill('Founder');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat it').fill(PASSWORD);
    await expectAccessible(page, `sign-up (${viewport.name})`);
    await shot(page, `sign-up-${viewport.name}`);
    await page.getByRole('button', { name: 'Create the workspace' }).click();
    await expect(page.getByTestId('signed-up')).toContainText(`Your workspace ${slug} is ready in sfo1`);

    // The same slug again: said at its field, nothing created.
    await page.goto(`${sfo1}/sign-up`);
    await page.getByLabel('Organization name').fill('Again');
    await page.getByLabel('Workspace').fill(slug);
    await page.getByLabel('Email').fill(`other-${email}`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat it').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the workspace' }).click();
    await expect(page.getByText(/is taken/)).toBeVisible();
    await shot(page, `sign-up-taken-${viewport.name}`);

    await page.goto(`${sfo1}/sign-in?workspace=${slug}`);
    await submitPassword(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/arc$/);
    await revealed(page);
    await page.goto(`${new URL(page.url()).origin}/arc/organization`);
    await expect(page.getByRole('heading', { level: 1, name: `Self ${viewport.name}` })).toBeVisible();
  });
}
