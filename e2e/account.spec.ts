import { expect, test } from './fixtures.ts';
import { latestCode, uniqueEmail } from './support.ts';

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

  // Sign out is local: token gone, back on the landing page.
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Start Planning' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();

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
