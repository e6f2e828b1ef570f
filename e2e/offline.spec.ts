// Offline (docs/offline.md "Offline"), on the production build as a static
// host serves it (`vite preview` under web/public/_headers): the service
// worker stores the app's shell and the API's last answers, so a plan opened
// before opens with no network and says so; a page never opened says it
// needs the network; back online, everything is fresh again by itself.
import type { Browser, Page } from '@playwright/test';
import { check, PHONE } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiCall, apiPost, signInViaApi, uniqueEmail } from './support.ts';

async function hostPlan(browser: Browser) {
  const hostPage = await (await browser.newContext({ viewport: PHONE })).newPage();
  const token = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Olive', lastName: 'Host' });
  const plan = await apiPost<{ id: string; slug: string }>('/api/plans', { title: 'Train trip', isOpenInvite: true }, token);
  await apiPost(`/api/plans/${plan.id}/ideas`, { text: 'Bowling' }, token);
  return { token, plan };
}

async function guestPhone(browser: Browser, plan: { id: string }) {
  const guest = await apiPost<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Gia', planId: plan.id });
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  await context.addInitScript((session) => {
    if (!localStorage.getItem('guestSession')) localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret });
  return { context, page: await context.newPage() };
}

/** The app's worker serves the page, and has saved what the page shows (it reads it once more, whole, when it first takes over). */
async function workerHasSaved(page: Page, paths: string[]) {
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 20_000 }).toMatch(/\/sw\.js$/);
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const cache = await caches.open('hangplan-reads');
          return (await cache.keys()).map((request) => new URL(request.url).pathname);
        }),
      { timeout: 10_000 },
    )
    .toEqual(expect.arrayContaining(paths));
}

test('a plan opened before opens in airplane mode, says it is offline, and is fresh again when the network is back', async ({ browser }) => {
  const { token, plan } = await hostPlan(browser);
  const { context, page } = await guestPhone(browser, plan);
  await page.goto(`/l/${plan.slug}/dashboard`);
  await expect(page.getByRole('article', { name: 'Bowling' })).toBeVisible();
  await workerHasSaved(page, [`/api/plans/slug/${plan.slug}`, `/api/plans/${plan.id}/ideas`]);

  await context.setOffline(true);
  await apiPost(`/api/plans/${plan.id}/ideas`, { text: 'Karaoke' }, token);
  await page.reload();
  await expect(page.getByRole('article', { name: 'Bowling' })).toBeVisible();
  const notice = page.getByRole('status').filter({ hasText: "You're offline" });
  await expect(notice).toHaveText(/^You're offline: showing what you saw at \d{1,2}:\d{2} [AP]M$/);
  await check(page, 'a plan opened offline', notice);
  await expect(page.getByRole('article', { name: 'Karaoke' })).toBeHidden();

  await context.setOffline(false);
  await expect(page.getByRole('article', { name: 'Karaoke' })).toBeVisible({ timeout: 10_000 });
  await expect(notice).toBeHidden();
});

test('a page never opened says it needs the network, and loads when the network is back', async ({ browser }) => {
  const { plan } = await hostPlan(browser);
  // A member who opened Home on this phone, but never this plan.
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signInViaApi(page, uniqueEmail('member'), { firstName: 'Mo', lastName: 'Member' });
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'Your Plans' })).toBeVisible();
  await workerHasSaved(page, ['/api/auth/me']);

  await context.setOffline(true);
  await page.goto(`/plan/${plan.id}`);
  const sentence = page.getByText("You're offline. This page will load when you're back online.");
  await check(page, 'a page that needs the network', sentence);

  await context.setOffline(false);
  await expect(sentence).toBeHidden({ timeout: 10_000 });
  await expect(page.getByText('Train trip').first()).toBeVisible();
});

test('where the browser offers the install, the guest dashboard ends with "Install Hangplan", which opens the browser\'s dialog', async ({ browser }) => {
  const { plan } = await hostPlan(browser);
  const { page } = await guestPhone(browser, plan);
  await page.goto(`/l/${plan.slug}/dashboard`);
  await expect(page.getByRole('article', { name: 'Bowling' })).toBeVisible();
  // Chromium's BeforeInstallPromptEvent, as the browser fires it once Hangplan is installable.
  await page.evaluate(() => {
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: async () => void ((window as { prompted?: boolean }).prompted = true),
      userChoice: Promise.resolve({ outcome: 'accepted' }),
    });
    window.dispatchEvent(offer);
    (window as { offerHeldBack?: boolean }).offerHeldBack = offer.defaultPrevented;
  });
  expect(await page.evaluate(() => (window as { offerHeldBack?: boolean }).offerHeldBack)).toBe(true);
  const card = page.getByRole('region', { name: 'Hangplan on your phone' });
  await check(page, 'the install hint', card.getByRole('button', { name: 'Install Hangplan' }));
  await card.getByRole('button', { name: 'Install Hangplan' }).click();
  expect(await page.evaluate(() => (window as { prompted?: boolean }).prompted)).toBe(true);
  await expect(card).toBeHidden();
});

/** The paths the worker keeps for this page's origin. */
const savedPaths = (page: Page) =>
  page.evaluate(async () => (await (await caches.open('hangplan-reads')).keys()).map((request) => new URL(request.url).pathname));

// docs/decisions/0082-nothing-kept-too-long.md: what the worker saved of a
// plan goes when its person leaves it here, and everything saved for a guest
// goes when the server says the guest is gone (removed by the host).
test("a plan left on this phone, or a guest removed by the host, leaves nothing saved of it: offline it needs the network", async ({ browser }) => {
  const { token, plan } = await hostPlan(browser);
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const memberToken = await signInViaApi(page, uniqueEmail('leaver'), { firstName: 'Lea', lastName: 'Ver' });
  await apiPost(`/api/plans/${plan.id}/join`, {}, memberToken);
  await page.goto(`/plan/${plan.id}`);
  await expect(page.getByText('Train trip').first()).toBeVisible();
  await workerHasSaved(page, [`/api/plans/${plan.id}`, `/api/plans/${plan.id}/participants`]);

  await page.getByRole('button', { name: 'Leave Plan' }).click();
  await page.getByRole('dialog', { name: 'Leave this plan?' }).getByRole('button', { name: 'Leave Plan' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect.poll(async () => (await savedPaths(page)).filter((path) => path.startsWith(`/api/plans/${plan.id}`))).toEqual([]);
  await context.setOffline(true);
  await page.goto(`/plan/${plan.id}`);
  await expect(page.getByText("You're offline. This page will load when you're back online.")).toBeVisible();
  await context.setOffline(false);

  // A guest the host removes: its next look at its own session is 404, and nothing saved for it stays.
  const guest = await guestPhone(browser, plan);
  await guest.page.goto(`/l/${plan.slug}/dashboard`);
  await expect(guest.page.getByRole('article', { name: 'Bowling' })).toBeVisible();
  await workerHasSaved(guest.page, [`/api/plans/${plan.id}/ideas`]);
  const people = await apiCall<{ id: string; name: string }[]>('GET', `/api/plans/${plan.id}/participants`);
  await apiCall('DELETE', `/api/plans/${plan.id}/participants/${people.find((p) => p.name === 'Gia')!.id}`, undefined, token);
  await guest.page.reload();
  await expect(guest.page).toHaveURL(new RegExp(`/l/${plan.slug}$`));
  await expect.poll(async () => (await savedPaths(guest.page)).filter((path) => path.includes('/ideas') || path.startsWith('/api/guest-session'))).toEqual([]);
});
