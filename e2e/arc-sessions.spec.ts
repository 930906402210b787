// Sessions in Arc → Settings: alice, signed in on two browsers, sees both (this one marked), signs
// the other out (its next page is the sign-in page), then signs out everywhere. Desktop and phone,
// axe, screenshots.
import { expectAccessible, shot } from './checks';
import { expect, revealed, test } from './fixtures';
import { signIn } from './sign-in';

test('alice signs another browser out, then signs out everywhere', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page, 'alice@acme.test');
  const other = await browser.newContext();
  const second = await other.newPage();
  try {
    await signIn(second, 'alice@acme.test');
    const listed = await second.request.get('/v1/me/sessions');
    expect(listed.status()).toBe(200);
    const theirs = ((await listed.json()) as { data: { id: string; current: boolean }[] }).data.find((s) => s.current)!;

    await page.goto('/arc/settings');
    await revealed(page);
    const rows = page.getByTestId('session-row');
    await expect(rows.filter({ has: page.getByText('this session') })).toHaveCount(1);
    const row = page.locator(`[data-session-id="${theirs.id}"]`);
    await expect(row).toContainText('Password at sfo1');
    await expectAccessible(page, 'settings with sessions');
    await shot(page, 'arc-sessions-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'settings with sessions (phone)');
    await shot(page, 'arc-sessions-phone');
    await page.setViewportSize({ width: 1280, height: 720 });

    await row.getByRole('button', { name: /^Sign out/ }).click();
    await expect(page.getByTestId('toast-success')).toContainText('Signed out');
    await expect(row).toHaveCount(0);
    // The other browser's next page: signed out.
    await second.goto('/arc');
    await expect(second).toHaveURL(/\/sign-in/);

    await page.getByRole('button', { name: 'Sign out everywhere…' }).click();
    const dialog = page.getByTestId('sign-out-everywhere-dialog');
    await expectAccessible(page, 'sign out everywhere dialog');
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto('/arc');
    await expect(page).toHaveURL(/\/sign-in/);
  } finally {
    await other.close();
  }
});
