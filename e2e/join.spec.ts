import type { Browser, Page } from '@playwright/test';
import { check } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { guestHeaders, latestCode, signInViaApi, uniqueEmail } from './support.ts';

const api = (path: string) => `${process.env.E2E_WEB_URL}${path}`;

async function post(path: string, body: unknown, token?: string, extraHeaders: Record<string, string> = {}) {
  const res = await fetch(api(path), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...guestHeaders(body),
      ...extraHeaders,
    },
    body: JSON.stringify(body),
  });
  expect(res.ok, `POST ${path} answered ${res.status}`).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

/** A host (signed in by API) and a fresh plan. */
async function hostPlan(browser: Browser, title: string) {
  const hostPage = await (await browser.newContext()).newPage();
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
  const plan = (await post('/api/plans', { title, isOpenInvite: true }, hostToken)) as { id: string; slug: string };
  return { hostToken, plan };
}

/** A visitor on a device of their own: nothing stored. */
async function freshPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

const storedGuest = (page: Page) =>
  page.evaluate(
    () => JSON.parse(localStorage.getItem('guestSession') ?? 'null') as { id: string; name: string; secret?: string } | null,
  );

test('guests join by name, come back as themselves, and keep their votes when they sign up', async ({ browser }) => {
  const { hostToken, plan } = await hostPlan(browser, 'Saturday hike');
  const joinUrl = `/l/${plan.slug}`;
  const dashboardUrl = new RegExp(`/l/${plan.slug}/dashboard(\\?.*)?$`);

  // A guest opens the link and joins by name.
  const guest = await freshPage(browser);
  await guest.goto(joinUrl);
  await expect(guest.getByText('Join the Plan')).toBeVisible();
  await expect(guest.getByRole('heading', { level: 1, name: 'Saturday hike' })).toBeVisible();
  await expect(guest.getByText('Planning phase')).toBeVisible();
  await expect(guest.getByRole('link', { name: 'Sign In Instead' })).toHaveAttribute('href', `/auth?returnTo=${joinUrl}`);
  const continueButton = guest.getByRole('button', { name: 'Continue' });
  await expect(continueButton).toBeDisabled();
  await guest.getByLabel("What's your name?").fill('Sam');
  await continueButton.click();
  await expect(guest.getByText("You've joined the planning session")).toBeVisible();
  await expect(guest).toHaveURL(dashboardUrl);
  await expect(guest.getByText('Welcome, Sam')).toBeVisible();
  await expect(guest.getByRole('region', { name: 'Plan Status' }).getByText('2 people joined')).toBeVisible();
  await expect(guest.getByRole('tab', { name: 'Ideas' })).toBeVisible();
  await guest.getByRole('button', { name: 'Pick Times' }).click();
  await expect(guest.getByRole('tab', { name: /^Availability/, selected: true })).toBeVisible();
  await expect(guest.getByRole('complementary', { name: 'Save Your Votes & Get Updates' })).toBeVisible();

  // Opening the link again on this device goes straight to the dashboard.
  await guest.goto(joinUrl);
  await expect(guest).toHaveURL(dashboardUrl);
  const sam = (await storedGuest(guest))!;
  expect(sam.name).toBe('Sam');

  // The session keeps this device's guest secret; the app sends it as a header.
  expect(sam.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

  // Sam votes on an idea and a date (through the API, as Sam's phone: with its
  // secret; the voting screens have their own tests).
  const samsPhone = { 'x-guest-secret': sam.secret! };
  const idea = (await post(`/api/plans/${plan.id}/ideas`, { text: 'Lake loop trail' }, hostToken)) as { id: string };
  await post(`/api/ideas/${idea.id}/vote`, { guestId: sam.id }, undefined, samsPhone);
  await post(`/api/plans/${plan.id}/vote-date`, { date: new Date().toISOString().slice(0, 10), guestId: sam.id }, undefined, samsPhone);

  // Sam comes back on another device: "Is this you?" with the votes.
  const back = await freshPage(browser);
  await back.goto(joinUrl);
  await back.getByLabel("What's your name?").fill('  sam ');
  await back.getByRole('button', { name: 'Continue' }).click();
  const card = back.getByRole('region', { name: 'Is this you?' });
  await expect(card.getByText('Sam', { exact: true })).toBeVisible();
  await expect(card.getByText('Guest participant')).toBeVisible();
  await expect(card.getByText('1 idea vote, 1 availability vote')).toBeVisible();
  await card.getByRole('button', { name: "Yes, that's me" }).click();
  await expect(back.getByText('Welcome back!')).toBeVisible();
  await expect(back.getByText('Your previous votes have been restored.')).toBeVisible();
  await expect(back).toHaveURL(dashboardUrl);
  await expect(back.getByText('Welcome, Sam')).toBeVisible();
  expect((await storedGuest(back))!.id).toBe(sam.id);
  // "Yes, that's me" gave this device a secret of its own.
  expect((await storedGuest(back))!.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect((await storedGuest(back))!.secret).not.toBe(sam.secret);
  const restored = await back.evaluate(() => JSON.parse(localStorage.getItem('guestVotes') ?? 'null'));
  expect(restored.planIdeaIds).toEqual([idea.id]);
  expect(restored.timeSlotIds).toHaveLength(1);
  await expect(back.getByRole('tab', { name: 'Ideas, you voted' })).toBeVisible();
  await expect(back.getByRole('tab', { name: 'Availability, you voted' })).toBeVisible();

  // Sam's own phone, open on the dashboard, is told live that the name was continued elsewhere.
  await expect(guest.getByText('Your name was continued on another device')).toBeVisible();
  await check(guest, 'guest dashboard: continued elsewhere notice', guest.getByText(/another device continued as Sam/));

  // Another Sam is someone else: a new profile with a full name.
  const other = await freshPage(browser);
  await other.goto(joinUrl);
  await other.getByLabel("What's your name?").fill('Sam');
  await other.getByRole('button', { name: 'Continue' }).click();
  await other.getByRole('button', { name: 'No, different person' }).click();
  await expect(other.getByRole('heading', { name: 'Enter Your Full Name' })).toBeVisible();
  await expect(other.getByLabel('First name')).toHaveValue('Sam');
  const create = other.getByRole('button', { name: 'Create New Guest Profile' });
  await expect(create).toBeDisabled();
  await other.getByLabel('Last name').fill('Rivera');
  await create.click();
  await expect(other.getByText("You've joined the planning session")).toBeVisible();
  await expect(other).toHaveURL(dashboardUrl);
  await expect(other.getByText('Welcome, Sam Rivera')).toBeVisible();
  expect((await storedGuest(other))!.id).not.toBe(sam.id);

  // A device that only typed Sam's name cannot take Sam into an account
  // (anyone could type it): signing up there signs in and says why the votes stayed.
  await signUpFromBanner(back, uniqueEmail('sam-new-phone'));
  await expect(
    back.getByText("You're now signed in, but your votes were not moved: this can only be done from the device that joined as Sam."),
  ).toBeVisible();
  await expect(back).toHaveURL(dashboardUrl);
  expect((await storedGuest(back))!.id).toBe(sam.id);

  // Sam's own phone creates an account from the banner: the votes move with them.
  await guest.goto(`${joinUrl}/dashboard`);
  // (It was Sam on the new phone: the notice is closed, and not shown again.)
  await guest.getByRole('alert').getByRole('button', { name: 'It was me' }).click();
  await expect(guest.getByText('Your name was continued on another device')).toBeHidden();
  await signUpFromBanner(guest, uniqueEmail('sam'));
  await expect(guest.getByText('Welcome! Your 2 previous votes have been saved to your account.')).toBeVisible();
  await expect(guest).toHaveURL(dashboardUrl);
  await expect(guest.getByRole('complementary', { name: 'Get Plan Notifications' })).toBeVisible();
  expect(await storedGuest(guest)).toBeNull();

  await guest.goto('/home');
  await expect(guest.getByRole('link', { name: /Saturday hike/ })).toBeVisible();
  const participants = (await (await fetch(api(`/api/plans/${plan.id}/participants`))).json()) as Array<{ isGuest: boolean; name: string }>;
  expect(participants.filter((p) => !p.isGuest).map((p) => p.name)).toContain('Sam');
  expect(participants.filter((p) => p.isGuest).map((p) => p.name)).toEqual(['Sam Rivera']);
});

/** "Create Account" on the guest banner, then the e-mailed code. */
async function signUpFromBanner(page: Page, email: string): Promise<void> {
  await page.getByRole('link', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/auth\?returnTo=/);
  const sentAfter = Date.now() - 1000;
  await page.getByLabel(/email/i).fill(email);
  await page.getByRole('button', { name: 'Send Verification Code' }).click();
  const code = await latestCode(email, sentAfter);
  await page.getByRole('textbox').first().click();
  await page.keyboard.type(code);
}

test('"That wasn\'t me": a guest signs out a device that continued as them, and nobody continues by name after', async ({ browser }) => {
  const { plan } = await hostPlan(browser, 'Quiz night');
  const joinUrl = `/l/${plan.slug}`;
  const dashboardUrl = new RegExp(`/l/${plan.slug}/dashboard(\\?.*)?$`);
  const nadia = await freshPage(browser);
  await nadia.goto(joinUrl);
  await nadia.getByLabel("What's your name?").fill('Nadia');
  await nadia.getByRole('button', { name: 'Continue' }).click();
  await expect(nadia).toHaveURL(dashboardUrl);

  // Someone who read the name in the list continues as Nadia on their phone.
  const stranger = await freshPage(browser);
  await stranger.goto(joinUrl);
  await stranger.getByLabel("What's your name?").fill('Nadia');
  await stranger.getByRole('button', { name: 'Continue' }).click();
  await stranger.getByRole('region', { name: 'Is this you?' }).getByRole('button', { name: "Yes, that's me" }).click();
  await expect(stranger).toHaveURL(dashboardUrl);

  // Nadia's phone is told at once, and signs the other device out.
  const notice = nadia.getByRole('alert').filter({ hasText: 'Your name was continued on another device' });
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: "That wasn't me" }).click();
  const dialog = nadia.getByRole('dialog', { name: 'Sign out the other devices?' });
  await check(nadia, 'sign out other devices dialog', dialog);
  await dialog.getByRole('button', { name: 'Sign them out' }).click();
  await expect(nadia.getByText('Only this device can continue as Nadia now.')).toBeVisible();
  await expect(notice).toBeHidden();

  // The stranger's phone no longer acts as Nadia: it is asked to confirm the
  // name again, and "Yes, that's me" is refused.
  await stranger.reload();
  await expect(stranger).toHaveURL(new RegExp(`${joinUrl}$`));
  await expect(stranger.getByText("Please confirm it's you to keep going on this device.")).toBeVisible();
  await stranger.getByRole('region', { name: 'Is this you?' }).getByRole('button', { name: "Yes, that's me" }).click();
  await expect(stranger.getByText('Nadia turned off continuing on other devices')).toBeVisible();
  await expect(stranger).toHaveURL(new RegExp(`${joinUrl}$`));
});

test('a guest session stored before guest secrets gets a clear way back: "Is this you?", then a secret of its own', async ({ browser }) => {
  const { plan } = await hostPlan(browser, 'Picnic');
  const joinUrl = `/l/${plan.slug}`;
  const guest = (await post('/api/guest-session', { name: 'Old Timer', planId: plan.id })) as { id: string; name: string };

  // The session as the app stored it before secrets: id, name and plan only.
  const device = await freshPage(browser);
  await device.context().addInitScript((session) => {
    if (!localStorage.getItem('guestSession')) localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: guest.id, name: guest.name, planId: plan.id });
  await device.goto(`${joinUrl}/dashboard`);

  // Not a dead end: the join page asks at once for that name.
  await expect(device).toHaveURL(new RegExp(`${joinUrl}$`));
  const card = device.getByRole('region', { name: 'Is this you?' });
  await expect(card.getByText("Please confirm it's you to keep going on this device.")).toBeVisible();
  await expect(card.getByText('Old Timer', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: "Yes, that's me" }).click();
  await expect(device.getByText('Welcome back!')).toBeVisible();
  await expect(device).toHaveURL(new RegExp(`${joinUrl}/dashboard(\\?.*)?$`));
  const stored = (await storedGuest(device))!;
  expect(stored.id).toBe(guest.id);
  expect(stored.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

  // And the restored device writes as that guest.
  await device.getByRole('textbox', { name: 'Suggest a new idea' }).fill('Cheese and grapes');
  await device.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(device.getByRole('article', { name: 'Cheese and grapes' })).toBeVisible();
});

test('a signed-in friend is joined from the link and lands on the plan', async ({ browser }) => {
  const { plan } = await hostPlan(browser, 'Board game night');
  const friend = await freshPage(browser);
  await signInViaApi(friend, uniqueEmail('friend'), { firstName: 'Fern', lastName: 'Friend' });
  await friend.goto(`/l/${plan.slug}`);
  await expect(friend.getByText('Joined successfully!')).toBeVisible();
  await expect(friend).toHaveURL(new RegExp(`/plan/${plan.id}$`));
  await friend.goto('/home');
  await expect(friend.getByRole('link', { name: /Board game night/ })).toBeVisible();
});

test('a missing plan says so', async ({ page }) => {
  await page.goto('/l/no-such-plan-link');
  await expect(page.getByRole('heading', { name: 'Plan not found' })).toBeVisible();
  await expect(page.getByText('This plan may have been deleted or the link is invalid.')).toBeVisible();
});
