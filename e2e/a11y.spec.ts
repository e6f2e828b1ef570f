// Accessibility and phone fit (docs/testing.md): axe-core (WCAG 2.1 A/AA) on every
// route in the states that matter, and no horizontal scroll at 360 px.
// Data is made through the API; each screen is checked once it has settled.
import type { Browser } from '@playwright/test';
import { check, phonePage } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiCall, apiPost as post, localDate, signInViaApi, uniqueEmail } from './support.ts';

test('public screens: landing, sign-in (both steps), 404, plan not found', async ({ browser }) => {
  const page = await phonePage(browser);
  await page.goto('/');
  await check(page, 'landing', page.getByRole('button', { name: 'Start Planning' }));

  await page.goto('/auth');
  await check(page, 'auth: e-mail step', page.getByRole('button', { name: 'Send Verification Code' }));
  await page.getByLabel(/email/i).fill(uniqueEmail('a11y'));
  await page.getByRole('button', { name: 'Send Verification Code' }).click();
  await check(page, 'auth: code step', page.getByRole('button', { name: 'Verify & Continue' }));

  await page.goto('/no/such/page');
  await check(page, '404', page.getByRole('heading', { name: '404 Page Not Found' }));

  await page.goto('/l/no-such-plan-link');
  await check(page, 'join: plan not found', page.getByRole('heading', { name: 'Plan not found' }));
});

test('host screens from empty to a completed plan', async ({ browser }) => {
  // 25 screens, each loaded, settled and analysed by axe: about a minute on
  // this 2-core machine, so it gets the journey's time instead of the default 60 s.
  test.setTimeout(180_000);
  const page = await phonePage(browser);
  const token = await signInViaApi(page, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });

  await page.goto('/home');
  await check(page, 'home: empty', page.getByText('Ready to make plans?'));
  await page.goto('/profile');
  await check(page, 'profile', page.getByRole('button', { name: 'Save Changes' }));
  await page.goto('/interests');
  await check(page, 'interests: empty', page.getByRole('heading', { level: 1 }));
  await post('/api/users/me/interests', { freeFormText: 'Sushi' }, token);
  await page.goto('/interests');
  await check(page, 'interests: filled', page.getByRole('list', { name: 'Your interests' }));
  await page.goto('/interests/manage');
  await check(page, 'interests/manage', page.getByRole('button', { name: /Dining/ }));
  await page.getByRole('button', { name: /Dining/ }).click();
  await check(page, 'interests/manage: expanded', page.getByRole('button', { name: /Remove Sushi/i }));
  await page.goto('/create-plan');
  await check(page, 'create plan', page.getByRole('button', { name: 'Create & Share Plan' }));

  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Friday dinner', isOpenInvite: true }, token);
  await page.goto('/home');
  await check(page, 'home: with plans', page.getByRole('link', { name: /Friday dinner/ }));
  await page.goto(`/plan/${plan.id}/share`);
  await check(page, 'share', page.getByRole('button', { name: 'View Plan Details' }).or(page.getByRole('link', { name: 'View Plan Details' })));
  await page.goto(`/plan/${plan.id}`);
  await check(page, 'plan: no ideas', page.getByText('No ideas yet'));

  // Ideas and votes from the host and a guest.
  const guest = await post<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Gail Guest', planId: plan.id });
  const ramen = await post<{ id: string }>(`/api/plans/${plan.id}/ideas`, { text: 'Ramen at Kenji' }, token);
  await post(`/api/plans/${plan.id}/ideas`, { text: 'Tacos on the pier' }, token);
  await post(`/api/ideas/${ramen.id}/vote`, {}, token);
  await post(`/api/ideas/${ramen.id}/vote`, { guestId: guest.id });
  await post(`/api/plans/${plan.id}/vote-date`, { date: localDate(1), guestId: guest.id });
  await post(`/api/plans/${plan.id}/vote-date`, { date: localDate(1) }, token);
  await page.goto(`/plan/${plan.id}`);
  await check(page, 'plan: ideas with votes', page.getByText('Top Idea'));
  await page.goto(`/plan/${plan.id}?tab=availability`);
  await check(page, 'plan: availability tab', page.getByRole('button', { name: 'Pick Date' }).first());
  await page.goto(`/plan/${plan.id}/ideas`);
  await check(page, 'plan ideas page', page.getByText('Ramen at Kenji'));
  await page.goto(`/plan/${plan.id}/availability`);
  await check(page, 'plan availability page', page.getByRole('button', { name: 'Submit Availability' }));

  // The Delete Plan confirm dialog.
  await page.goto(`/plan/${plan.id}`);
  await page.getByRole('button', { name: 'Delete Plan' }).click();
  await check(page, 'delete plan dialog', page.getByRole('dialog'));
  await page.getByRole('dialog').getByRole('button', { name: 'No', exact: true }).click();

  // Picked idea and locked date: the Set Event Time panel.
  await post(`/api/plans/${plan.id}/pick-idea`, { ideaId: ramen.id }, token);
  await post(`/api/plans/${plan.id}/lock-date`, { date: localDate(1) }, token);
  await page.goto(`/plan/${plan.id}`);
  await check(page, 'plan: set event time', page.getByRole('region', { name: 'Set Event Time' }));
  // Who's coming (decision 0103): the host answers Going (the friends stepper shows), then the spots dialog.
  const coming = page.getByRole('region', { name: 'Are you coming?' });
  await coming.getByRole('button', { name: 'Going' }).click();
  await check(page, 'plan: are you coming, going', coming.getByText("You're going"));
  await coming.getByRole('button', { name: 'Spots and friends' }).click();
  await check(page, 'plan: spots and friends dialog', page.getByRole('dialog', { name: 'Spots and friends' }));
  await page.keyboard.press('Escape');

  // Completed: Final Time Set and the Add to Calendar menu.
  await post(`/api/plans/${plan.id}/set-event-time`, { time: '19:30' }, token);
  await page.goto(`/plan/${plan.id}?tab=availability`);
  await check(page, 'plan: final time set', page.getByRole('region', { name: 'Final Time Set' }));
  await page.getByRole('button', { name: 'Add to Calendar' }).click();
  await check(page, 'plan: add to calendar menu', page.getByRole('menuitem', { name: 'Download .ics' }));
  await page.keyboard.press('Escape');
  await page.goto(`/plan/${plan.id}/availability`);
  await check(page, 'plan availability page: confirmed', page.getByText('Time Set!'));

  // Cancelled (docs/decisions/0100-cancelling-a-plan.md): the question with its
  // message, then the plan page, its frozen availability and the home card.
  await page.goto(`/plan/${plan.id}`);
  await page.getByRole('button', { name: 'Cancel Plan' }).click();
  await check(page, 'cancel plan dialog', page.getByRole('dialog').getByLabel('Message to everyone (optional)'));
  await page.getByRole('dialog').getByLabel('Message to everyone (optional)').fill('Kenji is closed that day.');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel Plan' }).click();
  await check(page, 'plan: cancelled', page.getByRole('button', { name: 'Reopen Plan' }));
  await page.goto(`/plan/${plan.id}?tab=availability`);
  await check(page, 'plan: cancelled availability', page.getByText('This plan was cancelled.'));
  await page.goto('/home');
  await check(page, 'home: a cancelled card', page.getByText('Cancelled', { exact: true }));

  await page.goto('/plan/00000000-0000-4000-8000-000000000000/share');
  await check(page, 'share: plan not found', page.getByText('Plan not found'));
  await page.goto('/plan/00000000-0000-4000-8000-000000000000');
  await check(page, 'plan: not found', page.getByText('Plan not found'));
});

test('a plan can be created and shared with the keyboard alone', async ({ browser }) => {
  const page = await phonePage(browser);
  await signInViaApi(page, uniqueEmail('keys'), { firstName: 'Kai', lastName: 'Keys' });
  await page.goto('/create-plan');
  const title = page.getByLabel('What are you planning?');
  await expect(title).toBeVisible();
  // Tab from the top of the page to the title field, type, then submit with Enter.
  await page.locator('body').focus();
  for (let i = 0; i < 10 && !(await title.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(title).toBeFocused();
  await page.keyboard.type('Keyboard picnic');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/plan\/[0-9a-f-]{36}\/share$/);
  // On the share page, Tab reaches the copy button and Enter/Space activate it.
  const copy = page.getByRole('button', { name: 'Copy link' });
  for (let i = 0; i < 15 && !(await copy.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(copy).toBeFocused();
  const details = page.getByRole('link', { name: 'View Plan Details' }).or(page.getByRole('button', { name: 'View Plan Details' }));
  for (let i = 0; i < 15 && !(await details.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/plan\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('tab', { name: 'Ideas' })).toBeVisible();
});

/** A plan with an idea and a guest who voted on it and on a date, and the guest's phone. */
async function guestWorld(browser: Browser) {
  const host = await phonePage(browser);
  const token = await signInViaApi(host, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Saturday hike', isOpenInvite: true }, token);
  const idea = await post<{ id: string }>(`/api/plans/${plan.id}/ideas`, { text: 'Lake loop trail' }, token);
  const guest = await post<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Sam', planId: plan.id });
  await post(`/api/ideas/${idea.id}/vote`, { guestId: guest.id });
  await post(`/api/plans/${plan.id}/vote-date`, { date: localDate(2), guestId: guest.id });
  const page = await phonePage(browser);
  await page.addInitScript((session) => {
    localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret });
  return { token, plan, idea, page };
}

// Two tests, not one: each screen is scanned in both schemes, and on a busy
// machine the whole guest story did not fit one test's minute.
test('guest screens: join form, is-this-you, dashboard, ideas and availability', async ({ browser }) => {
  const { plan, page } = await guestWorld(browser);
  const visitor = await phonePage(browser);
  await visitor.goto(`/l/${plan.slug}`);
  await check(visitor, 'join: name form', visitor.getByLabel("What's your name?"));
  await visitor.getByLabel("What's your name?").fill('Sam');
  await visitor.getByRole('button', { name: 'Continue' }).click();
  await check(visitor, 'join: is this you', visitor.getByRole('region', { name: 'Is this you?' }));
  await visitor.getByRole('button', { name: 'No, different person' }).click();
  await check(visitor, 'join: full name form', visitor.getByRole('button', { name: 'Create New Guest Profile' }));

  await page.goto(`/l/${plan.slug}/dashboard`);
  await check(page, 'guest dashboard: ideas', page.getByText('Lake loop trail'));
  await page.getByRole('tab', { name: /Availability/ }).click();
  await check(page, 'guest dashboard: availability', page.getByRole('heading', { name: 'When are you free?' }));
  await page.goto(`/l/${plan.slug}/ideas`);
  await check(page, 'guest ideas page', page.getByText('Lake loop trail'));
  await page.goto(`/l/${plan.slug}/availability`);
  await check(page, 'guest availability page', page.getByRole('button', { name: 'Submit Availability' }));
});

test('guest screens once the time is set: are you coming (full, the waitlist), confirmed', async ({ browser }) => {
  const { token, plan, idea, page } = await guestWorld(browser);
  await post(`/api/plans/${plan.id}/pick-idea`, { ideaId: idea.id }, token);
  await post(`/api/plans/${plan.id}/lock-date`, { date: localDate(2) }, token);
  await post(`/api/plans/${plan.id}/set-event-time`, { time: '10:00' }, token);
  // Every spot taken: the guest is told Going waits, and is waitlisted.
  await post(`/api/plans/${plan.id}/capacity`, { capacity: 1 }, token);
  await apiCall('PUT', `/api/plans/${plan.id}/rsvp`, { answer: 'going' }, token);
  await page.goto(`/l/${plan.slug}/dashboard`);
  const coming = page.getByRole('region', { name: 'Are you coming?' });
  await check(page, 'guest dashboard: are you coming, full', coming.getByText('Every spot is taken: Going puts you on the waitlist.'));
  await coming.getByRole('button', { name: 'Going' }).click();
  await check(page, 'guest dashboard: on the waitlist', coming.getByText("You're on the waitlist: #1"));
  await page.getByRole('tab', { name: /Availability/ }).click();
  await check(page, 'guest dashboard: confirmed', page.getByRole('region', { name: 'Event Time Confirmed!' }));
  await page.goto(`/l/${plan.slug}/availability`);
  await check(page, 'guest availability page: confirmed', page.getByText('Time Set!'));
});

test('the web app manifest is served, valid, and its icons load', async ({ request }) => {
  const res = await request.get('/manifest.webmanifest');
  expect(res.ok()).toBe(true);
  const manifest = (await res.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
  };
  expect(manifest).toMatchObject({ name: 'Hangplan', start_url: '/', display: 'standalone' });
  expect(manifest.short_name).toBeTruthy();
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  const sizes = manifest.icons.map((i) => i.sizes);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(manifest.icons.some((i) => i.purpose?.includes('maskable'))).toBe(true);
  for (const icon of manifest.icons) {
    const img = await request.get(icon.src);
    expect(img.ok(), icon.src).toBe(true);
    expect(img.headers()['content-type']).toBe(icon.type);
  }
});

test('the page links the manifest and carries link-preview tags', async ({ page, request }) => {
  await page.goto('/');
  const attr = (selector: string, name: string) => page.locator(selector).getAttribute(name);
  expect(await attr('link[rel="manifest"]', 'href')).toBe('/manifest.webmanifest');
  // The browser's bar in each scheme, picked by the phone's (docs/web-app.md "Dark mode").
  const bars = await page.locator('meta[name="theme-color"]').evaluateAll((metas) => metas.map((meta) => [meta.getAttribute('media'), meta.getAttribute('content')]));
  expect(bars).toEqual([
    ['(prefers-color-scheme: light)', '#7048e8'],
    ['(prefers-color-scheme: dark)', '#242424'],
  ]);
  expect(await attr('meta[property="og:title"]', 'content')).toBe('Hangplan');
  expect(await attr('meta[property="og:type"]', 'content')).toBe('website');
  expect(await attr('meta[property="og:description"]', 'content')).toBeTruthy();
  for (const selector of ['meta[property="og:image"]', 'meta[name="twitter:image"]']) {
    const image = await request.get((await attr(selector, 'content'))!);
    expect(image.headers()['content-type']).toBe('image/png');
  }
  const touchIcon = await request.get((await attr('link[rel="apple-touch-icon"]', 'href'))!);
  expect(touchIcon.headers()['content-type']).toBe('image/png');
});
