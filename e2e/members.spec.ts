// The Members page: alice (acme's only admin) invites someone, copies the link shown once; the
// invitee opens it in another browser at the workspace's region, chooses a password and lands in
// Arc; alice makes them a viewer, then removes them. Desktop and phone, axe on both pages.
import { expectAccessible, shot } from './checks';
import { expect, revealed, test } from './fixtures';
import { signIn } from './sign-in';

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`alice invites, the invitee joins, alice changes the role and removes them (${viewport.name})`, async ({
    page,
    browser,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page, 'alice@acme.test', '/arc/settings/members');
    await expect(page.getByRole('heading', { name: 'Members', exact: true })).toBeVisible();
    // alice is the last admin: the page says so, and her own role and removal are locked.
    await expect(page.getByTestId('last-admin-note')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove alice@acme.test' })).toBeDisabled();

    const email = `e2e-${viewport.name}-${Date.now()}@example.test`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = (await page.getByTestId('invite-link').textContent())!;
    expect(link).toMatch(/^http:\/\/sfo1\.localhost:\d+\/invite\/mi_[0-9A-Za-z]{12}_[0-9A-Za-z]{43}$/);
    await expect(page.getByRole('list', { name: 'Pending invitations' })).toContainText(email);
    await expectAccessible(page, `members page (${viewport.name})`);
    await shot(page, `members-${viewport.name}`);

    // The invitee, in a browser of their own.
    const other = await browser.newContext({ viewport });
    const invitee = await other.newPage();
    await invitee.goto(link);
    await revealed(invitee);
    await expect(invitee.getByRole('heading', { name: /Join/ })).toBeVisible();
    await expectAccessible(invitee, `accept page (${viewport.name})`);
    await shot(invitee, `members-accept-${viewport.name}`);
    await invitee.getByLabel('Your name').fill('E2E Invitee');
    await invitee.getByLabel('Choose a password').fill('a long e2e password');
    await invitee.getByLabel('Password again').fill('a long e2e password');
    await invitee.getByRole('button', { name: 'Create account and join' }).click();
    await expect(invitee).toHaveURL(/sfo1\.localhost:\d+\/arc$/);
    // Used once: the link now says so.
    await invitee.goto(link);
    await expect(invitee.getByText('this invitation was used already')).toBeVisible();
    await other.close();

    await page.reload();
    await revealed(page);
    const row = page.getByTestId('member-row').filter({ hasText: email });
    await expect(row).toBeVisible();
    await row.getByLabel(`Role of ${email}`).selectOption('viewer');
    await expect(row.getByLabel(`Role of ${email}`)).toHaveValue('viewer');
    await row.getByRole('button', { name: `Remove ${email}` }).click();
    const dialog = page.getByTestId('remove-member');
    await expect(dialog).toBeVisible();
    await shot(page, `members-remove-${viewport.name}`);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByTestId('member-row').filter({ hasText: email })).toHaveCount(0);
  });
}
