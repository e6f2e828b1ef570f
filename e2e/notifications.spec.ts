import type { Browser, BrowserContext, Page } from '@playwright/test';
import { check, PHONE } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiCall, apiPost, localDate, serviceWorkerOf, signInViaApi, trackRequests, uniqueEmail } from './support.ts';

// Notifications on phones (docs/notifications.md): a guest turns them on with
// one tap (the browser's permission asked then, not on load), the host locks
// a date, and the guest's service worker shows it.
//
// Headless Chromium has no push service (its PushManager refuses to
// subscribe), so the page's PushManager hands out a subscription of the
// stand-in push service the e2e stack runs (E2E_PUSH_URL,
// tests/support/push-service.ts). Everything else is real: the app registers
// /sw.js and gives the subscription to the API, the API encrypts and sends
// the message with VAPID, the stand-in checks and decrypts it, and the
// decrypted message goes to the service worker through Chromium's DevTools
// protocol (ServiceWorker.deliverPushMessage), as a push service would.

interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const pushUrl = () => process.env.E2E_PUSH_URL!;

async function standInSubscription(): Promise<Subscription> {
  const res = await fetch(`${pushUrl()}/control/subscriptions`, { method: 'POST' });
  expect(res.status).toBe(201);
  return (await res.json()) as Subscription;
}

/** The decrypted messages the stand-in accepted for this endpoint. */
async function received(endpoint: string): Promise<{ text: string; payload: unknown }[]> {
  const res = await fetch(`${pushUrl()}/control/received?endpoint=${encodeURIComponent(endpoint)}`);
  return (await res.json()) as { text: string; payload: unknown }[];
}

/** The page's PushManager subscribes to the stand-in (kept in localStorage, so it survives reloads). */
async function bridgePushManager(context: BrowserContext, subscription: Subscription) {
  await context.addInitScript((sub: Subscription) => {
    const STORE = 'e2e:push-subscription';
    const make = (serverKey: number[]) => ({
      endpoint: sub.endpoint,
      expirationTime: null,
      options: { applicationServerKey: new Uint8Array(serverKey).buffer, userVisibleOnly: true },
      toJSON: () => sub,
      unsubscribe: async () => {
        localStorage.removeItem(STORE);
        return true;
      },
    });
    PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
      const key = [...new Uint8Array(options!.applicationServerKey as ArrayBuffer)];
      localStorage.setItem(STORE, JSON.stringify(key));
      return make(key) as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async function getSubscription() {
      const key = localStorage.getItem(STORE);
      return key ? (make(JSON.parse(key) as number[]) as unknown as PushSubscription) : null;
    };
  }, subscription);
}

async function guestPhone(browser: Browser, plan: { id: string }, name: string, options: { allowNotifications: boolean }) {
  const guest = await apiPost<{ id: string; name: string; secret: string }>('/api/guest-session', { name, planId: plan.id });
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  if (options.allowNotifications) await context.grantPermissions(['notifications'], { origin: process.env.E2E_WEB_URL });
  await context.addInitScript((session) => {
    if (!localStorage.getItem('guestSession')) localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret });
  const subscription = await standInSubscription();
  await bridgePushManager(context, subscription);
  const page = await context.newPage();
  trackRequests(page);
  return { page, context, subscription };
}

/** Hands a message to the page's service worker as a push service would (DevTools protocol). */
async function deliverToServiceWorker(page: Page, text: string) {
  const { cdp, origin, registrationId } = await serviceWorkerOf(page, new URL(page.url()).origin);
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: text });
}

const shownNotifications = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, url: (n.data as { url?: string } | null)?.url }));
  });

async function hostWithPlan(browser: Browser, title: string) {
  const hostContext = await browser.newContext({ viewport: PHONE });
  const hostPage = await hostContext.newPage();
  trackRequests(hostPage);
  const token = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
  const plan = await apiPost<{ id: string; slug: string; title: string }>('/api/plans', { title, isOpenInvite: true }, token);
  await apiPost(`/api/plans/${plan.id}/ideas`, { text: 'Bowling' }, token);
  return { hostPage, token, plan };
}

test('a guest turns notifications on with one tap, and the service worker shows the host setting the date and time', async ({ browser }) => {
  const { token, plan } = await hostWithPlan(browser, 'Friday bowling');
  const { page, subscription } = await guestPhone(browser, plan, 'Gus', { allowNotifications: true });
  await page.goto(`/l/${plan.slug}/dashboard`);

  const card = page.getByRole('region', { name: 'Notifications' });
  await check(page, 'guest dashboard with the notifications card', card.getByRole('button', { name: 'Turn on notifications' }));
  await expect(card).toContainText('when something is decided in this plan');
  await card.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(card.getByText('Notifications are on for this device.')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Turn off notifications' })).toBeVisible();
  // The app's own service worker controls the page now.
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);

  // The host locks a date and sets its time: the API encrypts one message
  // (the plan's notice budget, docs/notifications.md) to this phone's subscription.
  await apiPost(`/api/plans/${plan.id}/lock-date`, { date: localDate(3) }, token);
  await apiPost(`/api/plans/${plan.id}/set-event-time`, { time: '19:30' }, token);
  await expect.poll(async () => (await received(subscription.endpoint)).length, { timeout: 15_000 }).toBe(1);
  const [message] = await received(subscription.endpoint);
  expect(message!.payload).toMatchObject({ title: 'Friday bowling', body: expect.stringMatching(/^It's on: .* at 7:30 PM$/), url: `/l/${plan.slug}` });

  // DevTools' delivery is now and then dropped while the worker starts (seen
  // in CI: nothing shown within 10 s); a push service delivers again too. The
  // tag makes a second delivery replace the first, so one notification shows.
  await expect(async () => {
    await deliverToServiceWorker(page, message!.text);
    await expect.poll(() => shownNotifications(page), { timeout: 3_000 }).not.toEqual([]);
  }).toPass({ timeout: 20_000 });
  await expect.poll(() => shownNotifications(page)).toEqual([
    { title: 'Friday bowling', body: (message!.payload as { body: string }).body, url: `/l/${plan.slug}` },
  ]);

  // Still on after a reload; off again with one tap.
  await page.reload();
  await card.getByRole('button', { name: 'Turn off notifications' }).click();
  await expect(card.getByRole('button', { name: 'Turn on notifications' })).toBeVisible();
});

test('the permission is asked on the tap, not on load; a refusal says how to allow them', async ({ browser }) => {
  const { plan } = await hostWithPlan(browser, 'Sunday brunch');
  const { page, subscription } = await guestPhone(browser, plan, 'Nora', { allowNotifications: false });
  await page.goto(`/l/${plan.slug}/dashboard`);
  const card = page.getByRole('region', { name: 'Notifications' });
  await expect(card.getByRole('button', { name: 'Turn on notifications' })).toBeVisible();
  expect(await page.evaluate(() => Notification.permission)).toBe('default');

  // Headless Chromium answers a prompt nobody allowed with "denied".
  await card.getByRole('button', { name: 'Turn on notifications' }).click();
  const blocked = card.getByText("Notifications are blocked for Hangplan. Allow them in your browser's site settings to turn them on.");
  await check(page, 'notifications blocked', blocked);
  await expect(card.getByRole('button')).toHaveCount(0);
  expect(await received(subscription.endpoint)).toEqual([]);
});

test("the host sees who hasn't answered, reminds only them, and sets a deadline everyone sees", async ({ browser }) => {
  const { hostPage, plan } = await hostWithPlan(browser, 'Game night');
  // Gus has notifications on and has not voted; Vera voted, so she is not waiting.
  const { page: gusPage, subscription } = await guestPhone(browser, plan, 'Gus', { allowNotifications: true });
  await gusPage.goto(`/l/${plan.slug}/dashboard`);
  await gusPage.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(gusPage.getByText('Notifications are on for this device.')).toBeVisible();
  const vera = await apiPost<{ id: string }>('/api/guest-session', { name: 'Vera', planId: plan.id });
  const [idea] = await apiCall<{ id: string }[]>('GET', `/api/plans/${plan.id}/ideas`);
  await apiPost(`/api/ideas/${idea!.id}/vote`, { guestId: vera.id });

  await hostPage.goto(`/plan/${plan.id}`);
  const waiting = hostPage.getByRole('region', { name: 'Waiting on' });
  await expect(waiting.getByRole('list', { name: 'Waiting on' }).getByRole('listitem')).toHaveText(['Gus (Guest)']);
  await check(hostPage, "the host's waiting list", waiting.getByRole('button', { name: 'Remind them' }));
  await waiting.getByRole('button', { name: 'Remind them' }).click();
  await expect(hostPage.getByText('Reminder sent to 1 person')).toBeVisible();
  await expect(waiting.getByRole('button', { name: 'Remind them' })).toBeDisabled();
  await expect(waiting).toContainText(/Reminded at \d{1,2}:\d{2} [AP]M/);
  await expect.poll(async () => (await received(subscription.endpoint)).map((m) => (m.payload as { body: string }).body), { timeout: 15_000 })
    .toEqual([expect.stringMatching(/vote/i)]);

  // Decide by: three days ahead at 7 PM, locked automatically.
  const status = hostPage.getByRole('region', { name: 'Plan Status' });
  await status.getByRole('button', { name: 'Set deadline' }).click();
  await status.getByLabel('Decide by', { exact: true }).fill(`${localDate(3)}T19:00`);
  await status.getByRole('checkbox', { name: 'Lock automatically at the deadline' }).check();
  await check(hostPage, 'the deadline form', status.getByRole('button', { name: 'Save' }));
  await status.getByRole('button', { name: 'Save' }).click();
  await expect(status).toContainText(/7:00 PM · (2|3) days left/);
  await expect(status).toContainText('The top idea and date will be locked automatically.');

  // Everyone sees it, live.
  await expect(gusPage.getByRole('region', { name: 'Plan Status' })).toContainText(/Decide by.*7:00 PM · (2|3) days left/);
  await check(gusPage, "the guest's deadline", gusPage.getByText('The top idea and date will be locked automatically.'));
});
