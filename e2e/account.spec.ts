import { check } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiCall, apiPost, latestCode, signInViaApi, uniqueEmail, waitForMail } from './support.ts';

test('sign up with an e-mailed code, edit the profile, sign out and sign in again', async ({ page }) => {
  const email = uniqueEmail('host');

  // Landing page: the hero sends the code and moves on to code entry.
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
  let sentAfter = Date.now() - 1000;
  await page.getByRole('textbox', { name: /email/i }).first().fill(email);
  await page.getByRole('button', { name: 'Start Planning' }).click();
  await expect(page.getByText('Code sent!')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\?returnTo=(%2F|\/)home$/);
  await expect(page.getByRole('button', { name: 'Verify & Continue' })).toBeDisabled();

  const code = await latestCode(email, sentAfter);
  await page.getByRole('textbox').first().click();
  await page.keyboard.type(code);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: 'Your Plans' })).toBeVisible();
  await expect(page.getByText('Ready to make plans?')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();

  // Profile: give a name; the avatar initials and welcome line follow.
  await page.getByRole('link', { name: /profile/i }).first().click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel('Email Address')).toHaveValue(email);
  await page.getByLabel('First Name').fill('Riley');
  await page.getByLabel('Last Name').fill('Stone');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.goto('/home');
  await expect(page.getByText(/Riley/)).toBeVisible();
  await expect(page.getByText('RS', { exact: true })).toBeVisible();

  // Sign out ends the session on the server too: token gone, back on the
  // landing page, and a copy of the old token is refused.
  const oldToken = await page.evaluate(() => localStorage.getItem('authToken'));
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Start Planning' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  const replay = await fetch(`${process.env.E2E_WEB_URL}/api/auth/me`, { headers: { authorization: `Bearer ${oldToken}` } });
  expect(replay.status).toBe(401);

  // Signed-in-only pages send visitors to sign in and back.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth\?returnTo=(%2F|\/)profile$/);

  // Sign in again: same account, same name.
  sentAfter = Date.now() - 1000;
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Send Verification Code' }).click();
  await expect(page.getByRole('button', { name: 'Verify & Continue' })).toBeVisible();
  const second = await latestCode(email, sentAfter);
  expect(second).not.toBe(code);
  await page.getByRole('textbox').first().click();
  await page.keyboard.type(second);
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel('First Name')).toHaveValue('Riley');
});

test('a wrong code is refused with the spec\'s message', async ({ page }) => {
  const email = uniqueEmail('wrong');
  await page.goto('/auth');
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Send Verification Code' }).click();
  const code = await latestCode(email);
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByRole('textbox').first().click();
  await page.keyboard.type(wrong);
  await expect(page.getByText('Invalid code')).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
});

test('unknown paths show the 404 card', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
});

/** One account signed in on two devices (two sessions). */
async function twoDevices(browser: import('@playwright/test').Browser, email: string) {
  const phone = await (await browser.newContext()).newPage();
  await signInViaApi(phone, email, { firstName: 'Dana', lastName: 'Two' });
  // The next code must be told apart from the first by its time (latestCode).
  await phone.waitForTimeout(1100);
  const laptop = await (await browser.newContext()).newPage();
  await signInViaApi(laptop, email);
  return { phone, laptop };
}

test('change the e-mail with the code sent to the new address; the other device is signed out; the old address undoes it', async ({ browser }) => {
  const oldEmail = uniqueEmail('before');
  const newEmail = uniqueEmail('after');
  const { phone, laptop } = await twoDevices(browser, oldEmail);
  await laptop.goto('/home');
  await expect(laptop.getByRole('heading', { name: 'Your Plans' })).toBeVisible();

  await phone.goto('/profile');
  await expect(phone.getByLabel('Email Address')).toHaveValue(oldEmail);
  await phone.getByLabel('Email Address').fill(newEmail);
  const sentAfter = Date.now() - 1000;
  await phone.getByRole('button', { name: 'Save Changes' }).click();
  await expect(phone.getByText('Code sent!')).toBeVisible();
  const step = phone.getByRole('region', { name: 'Confirm your new email' });
  await expect(step.getByText(newEmail)).toBeVisible();
  // Nothing changed yet.
  await expect(phone.getByText(`Dana Two · ${oldEmail}`)).toBeVisible();

  const code = await latestCode(newEmail, sentAfter);
  await step.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  await phone.keyboard.type(code);
  await expect(phone.getByText('Email updated')).toBeVisible();
  await expect(phone.getByText(`Dana Two · ${newEmail}`)).toBeVisible();
  await expect(phone.getByLabel('Email Address')).toHaveValue(newEmail);
  await expect(step).toBeHidden();

  // The other device's session ended with the change: it is sent to sign in.
  await laptop.goto('/profile');
  await expect(laptop).toHaveURL(/\/auth\?returnTo=(%2F|\/)profile$/);
  expect(await laptop.evaluate(() => localStorage.getItem('authToken'))).toBeNull();

  // The old address is told, with a link that undoes it (say the change was a thief's).
  const notice = await waitForMail(oldEmail, /^Your Hangplan e-mail address was changed$/, sentAfter);
  expect(notice.text).toContain(`was changed from ${oldEmail} to ${newEmail}.`);
  const link = new URL(/(http\S+\/account\/undo-email-change#token=[A-Za-z0-9_-]{43})/.exec(notice.text ?? '')![1]);
  const owner = await (await browser.newContext({ viewport: { width: 360, height: 780 } })).newPage();
  await owner.goto(`${link.pathname}${link.hash}`);
  await check(owner, 'undo e-mail change', owner.getByRole('button', { name: 'Undo the change' }));
  await owner.getByRole('button', { name: 'Undo the change' }).click();
  await expect(owner.getByRole('heading', { name: 'Your e-mail address is back' })).toBeVisible();
  await expect(owner.getByText(oldEmail)).toBeVisible();
  await check(owner, 'e-mail change undone', owner.getByRole('link', { name: 'Sign In' }));
  // The phone that made the change is signed out too.
  await phone.goto('/profile');
  await expect(phone).toHaveURL(/\/auth\?returnTo=(%2F|\/)profile$/);
});

test('"Sign out everywhere" signs out this device and every other one', async ({ browser }) => {
  const { phone, laptop } = await twoDevices(browser, uniqueEmail('everywhere'));
  await laptop.goto('/home');
  await expect(laptop.getByRole('heading', { name: 'Your Plans' })).toBeVisible();

  await phone.goto('/profile');
  await phone.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(phone).toHaveURL(/\/$/);
  await expect(phone.getByRole('button', { name: 'Start Planning' })).toBeVisible();
  expect(await phone.evaluate(() => localStorage.getItem('authToken'))).toBeNull();

  await laptop.goto('/home');
  await expect(laptop).toHaveURL(/\/auth\?returnTo=(%2F|\/)home$/);
  expect(await laptop.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
});

// docs/decisions/0081-deleting-an-account.md: the profile asks first, naming
// the hosted plans that go with the account (axe clean, light and dark), then
// the account is deleted, this phone signed out to the landing page, and every
// copy of the token refused; a plan with another member is handed over.
test('delete the account from the profile: asked first, then signed out to the landing page', async ({ page, browser }) => {
  const email = uniqueEmail('leaving');
  const token = await signInViaApi(page, email, { firstName: 'Lee', lastName: 'Leaving' });
  const friendPage = await (await browser.newContext()).newPage();
  const friendToken = await signInViaApi(friendPage, uniqueEmail('staying'), { firstName: 'Sam', lastName: 'Staying' });
  const shared = await apiPost<{ id: string }>('/api/plans', { title: 'Board games' }, token);
  await apiPost(`/api/plans/${shared.id}/join`, {}, friendToken);
  await apiPost(`/api/plans/${shared.id}/ideas`, { text: 'Catan' }, token);
  const alone = await apiPost<{ id: string }>('/api/plans', { title: 'Just us' }, token);
  await apiPost('/api/guest-session', { name: 'Gus', planId: alone.id });

  await page.goto('/profile');
  const card = page.getByRole('region', { name: 'Delete account' });
  await card.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog.getByText(/your ideas and comments stay, signed "Deleted account"/)).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveText(['Just us']);
  await check(page, 'the delete-account question', dialog.getByRole('button', { name: 'Cancel' }));

  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Start Planning' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  const replay = await fetch(`${process.env.E2E_WEB_URL}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(replay.status).toBe(401);

  // The friend hosts the shared plan now; the idea stays, signed "Deleted account"; the plan with only a guest is gone.
  const plan = await apiCall<{ hostId: string }>('GET', `/api/plans/${shared.id}`);
  const friend = await apiCall<{ id: string }>('GET', '/api/auth/me', undefined, friendToken);
  expect(plan.hostId).toBe(friend.id);
  expect(await apiCall<{ authorName: string }[]>('GET', `/api/plans/${shared.id}/ideas`)).toEqual([expect.objectContaining({ authorName: 'Deleted account' })]);
  expect((await fetch(`${process.env.E2E_WEB_URL}/api/plans/${alone.id}`)).status).toBe(404);
});
