import { check, phonePage } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiPost, signInViaApi, uniqueEmail } from './support.ts';

// "Reset link" on phones (docs/decisions/0087-resetting-a-plans-link.md): the
// host of a plan with closed invitations resets its link after a confirm
// dialog that passes axe; the share page shows the new link, a guest's phone
// open on the old link follows the plan to the new one live, and the old
// link is "Plan not found" for anyone who opens it.

test('the host resets the link: the old one ends, the guest already in follows the plan', async ({ browser }) => {
  const hostPage = await phonePage(browser);
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Ana', lastName: 'Host' });
  const plan = await apiPost<{ id: string; slug: string }>('/api/plans', { title: 'Quiet dinner', isOpenInvite: false }, hostToken);

  // A guest joined by the link; its phone keeps the session the join page stores.
  const guest = await apiPost<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Gia Guest', planId: plan.id, slug: plan.slug });
  const guestContext = await browser.newContext({ viewport: { width: 360, height: 780 } });
  await guestContext.addInitScript((session) => {
    if (!localStorage.getItem('guestSession')) localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret, slug: plan.slug });
  const guestPage = await guestContext.newPage();
  await guestPage.goto(`/l/${plan.slug}/dashboard`);
  await expect(guestPage.getByRole('heading', { level: 1, name: 'Quiet dinner' })).toBeVisible();

  await hostPage.goto(`/plan/${plan.id}/share`);
  const linkBox = hostPage.getByRole('textbox', { name: 'Plan link' });
  await expect(linkBox).toHaveValue(new RegExp(`/l/${plan.slug}$`));
  await hostPage.getByRole('button', { name: 'Reset link' }).click();
  const dialog = hostPage.getByRole('dialog', { name: 'Reset the plan link?' });
  await expect(dialog).toContainText('The old link and QR code stop working at once');
  await check(hostPage, 'reset link dialog', dialog);
  await dialog.getByRole('button', { name: 'Reset link' }).click();
  await expect(hostPage.getByText('The old link no longer works')).toBeVisible();
  await expect(linkBox).not.toHaveValue(new RegExp(`/l/${plan.slug}$`));
  const fresh = /\/l\/([A-Za-z0-9_-]{12})$/.exec(await linkBox.inputValue())![1];

  // The guest's phone follows the plan to its new link, still as Gia.
  await expect(guestPage).toHaveURL(new RegExp(`/l/${fresh}/dashboard$`));
  await expect(guestPage.getByRole('heading', { level: 1, name: 'Quiet dinner' })).toBeVisible();

  // Anyone else on the old link: "Plan not found".
  const strangerPage = await phonePage(browser);
  await strangerPage.goto(`/l/${plan.slug}`);
  await expect(strangerPage.getByRole('heading', { name: 'Plan not found' })).toBeVisible();
  await strangerPage.goto(`/l/${fresh}`);
  await expect(strangerPage.getByRole('textbox', { name: "What's your name?" })).toBeVisible();
});
