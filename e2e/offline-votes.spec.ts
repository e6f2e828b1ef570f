// Votes and comments made with no network are not lost (docs/offline.md
// "Offline votes and comments"): a guest in a dead zone votes on an idea and
// a date and comments; each shows at once, marked "Waiting for connection",
// and arrives once when the phone is back online, as the host sees through
// the API. And a vote whose answer is lost on the way is sent again with its
// Idempotency-Key, which the API answers from the first time: it is not
// toggled back. No reload while offline (that needs the service worker:
// offline.spec.ts). And where the browser has Background Sync, a vote made
// offline arrives even if the tab is closed before the network is back, and
// so does an answer to "Are you coming?" (a PUT).
import type { Browser, Page } from '@playwright/test';
import { check, PHONE } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiCall, apiPost, localDate, longDate, serviceWorkerOf, signInViaApi, trackRequests, uniqueEmail } from './support.ts';

interface Idea {
  id: string;
  text: string;
  voteCount: number;
}

async function hostPlan(browser: Browser) {
  const hostPage = await (await browser.newContext({ viewport: PHONE })).newPage();
  const token = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Wes', lastName: 'Host' });
  const plan = await apiPost<{ id: string; slug: string }>('/api/plans', { title: 'Dead zone', isOpenInvite: true }, token);
  const idea = await apiPost<Idea>(`/api/plans/${plan.id}/ideas`, { text: 'Bowling' }, token);
  await hostPage.close();
  return { token, plan, idea };
}

/** A guest's phone, its guest session stored as the app keeps it, on the plan's dashboard. */
async function guestPhone(browser: Browser, plan: { id: string; slug: string }, { backgroundSync = true } = {}) {
  const guest = await apiPost<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Gia', planId: plan.id });
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  // A browser without Background Sync (Firefox, Safari): the page alone sends.
  if (!backgroundSync) await context.addInitScript(() => delete (window as { SyncManager?: unknown }).SyncManager);
  await context.addInitScript((session) => {
    if (!localStorage.getItem('guestSession')) localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret });
  const page = await context.newPage();
  trackRequests(page);
  await page.goto(`/l/${plan.slug}/dashboard`);
  return { context, page, guest };
}

const dayButton = (page: Page, date: string) => page.getByRole('button', { name: new RegExp(`^${longDate(date)}:`) });
const stored = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((name) => name.startsWith('offlineAction:')).length);

test('votes and a comment made offline show as waiting and arrive once each when the phone is back online', async ({ browser }) => {
  const { token, plan, idea } = await hostPlan(browser);
  const { context, page } = await guestPhone(browser, plan);
  const bowling = page.getByRole('article', { name: 'Bowling' });
  await expect(bowling.getByRole('button', { name: 'Vote for Bowling (0 votes)' })).toBeVisible();

  await context.setOffline(true);

  // An idea vote: shown at once, marked, no error.
  await bowling.getByRole('button', { name: 'Vote for Bowling (0 votes)' }).click();
  await expect(bowling.getByRole('button', { name: 'Vote for Bowling (1 vote)' })).toHaveAttribute('aria-pressed', 'true');
  const voteWaiting = bowling.getByRole('status', { name: 'Your vote for Bowling is waiting for connection' });
  await expect(voteWaiting).toHaveText('Waiting for connection');

  // A comment: the box empties, the comment waits in the thread.
  await bowling.getByRole('button', { name: 'Add comment' }).click();
  const box = bowling.getByRole('textbox', { name: 'Add a comment on Bowling' });
  await box.fill('Running late, save me a lane');
  await box.press('Enter');
  await expect(box).toHaveValue('');
  const commentWaiting = bowling.getByRole('status', { name: 'Your comment is waiting for connection' });
  await expect(commentWaiting).toBeVisible();
  await expect(bowling.getByRole('list', { name: 'Comments on Bowling' })).toContainText('Running late, save me a lane');
  await expect(bowling.getByRole('button', { name: '1 comment' })).toBeVisible();

  // A date vote on a day nobody chose yet.
  const tomorrow = localDate(1);
  await page.getByRole('tab', { name: /Availability/ }).click();
  await dayButton(page, tomorrow).click();
  await expect(dayButton(page, tomorrow)).toHaveAccessibleName(`${longDate(tomorrow)}: 1 vote, you're free, waiting for connection`);
  const datesWaiting = page.getByRole('status', { name: 'Your date votes are waiting for connection' });
  await expect(datesWaiting).toBeVisible();
  expect(await stored(page)).toBe(3);
  await expect(page.getByText('Error', { exact: true })).toBeHidden();
  await check(page, 'date votes waiting for connection', datesWaiting);

  // Back online: sent by themselves, in order; nothing waits any more.
  await context.setOffline(false);
  await expect(datesWaiting).toBeHidden({ timeout: 15_000 });
  await expect(dayButton(page, tomorrow)).toHaveAccessibleName(`${longDate(tomorrow)}: 1 vote, you're free`);
  await page.getByRole('tab', { name: /Ideas/ }).click();
  await expect(voteWaiting).toBeHidden();
  await expect(commentWaiting).toBeHidden();
  await expect(bowling.getByRole('button', { name: 'Vote for Bowling (1 vote)' })).toHaveAttribute('aria-pressed', 'true');
  expect(await stored(page)).toBe(0);

  // The host's view: each exactly once.
  const ideas = await apiCall<Idea[]>('GET', `/api/plans/${plan.id}/ideas`, undefined, token);
  expect(ideas.find((i) => i.id === idea.id)?.voteCount).toBe(1);
  const voters = await apiCall<Array<{ name: string }>>('GET', `/api/ideas/${idea.id}/voters`, undefined, token);
  expect(voters.map((v) => v.name)).toEqual(['Gia']);
  const comments = await apiCall<Array<{ text: string; authorName: string }>>('GET', `/api/ideas/${idea.id}/comments`, undefined, token);
  expect(comments.map((c) => [c.authorName, c.text])).toEqual([['Gia', 'Running late, save me a lane']]);
  const slots = await apiCall<Array<{ date: string; voteCount: number }>>('GET', `/api/plans/${plan.id}/timeslots`, undefined, token);
  expect(slots.filter((s) => s.date === tomorrow).map((s) => s.voteCount)).toEqual([1]);
});

test('a vote whose answer was lost is sent again with the same key and is not toggled back', async ({ browser }) => {
  const { token, plan, idea } = await hostPlan(browser);
  // The page's own retry (with Background Sync the worker may send it first,
  // out of this test's sight: the next test).
  const { page } = await guestPhone(browser, plan, { backgroundSync: false });
  const bowling = page.getByRole('article', { name: 'Bowling' });
  await expect(bowling.getByRole('button', { name: 'Vote for Bowling (0 votes)' })).toBeVisible();

  // The first vote reaches the server, but its answer never reaches the phone.
  const keys: string[] = [];
  const replayed: string[] = [];
  await page.route('**/api/ideas/*/vote', async (route) => {
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (keys.length > 1) return route.continue();
    await route.fetch();
    await route.abort('internetdisconnected');
  });
  page.on('response', (response) => {
    if (response.url().endsWith(`/api/ideas/${idea.id}/vote`)) replayed.push(response.headers()['idempotent-replayed'] ?? '');
  });

  await bowling.getByRole('button', { name: 'Vote for Bowling (0 votes)' }).click();
  await expect(bowling.getByRole('button', { name: 'Vote for Bowling (1 vote)' })).toHaveAttribute('aria-pressed', 'true');
  // Sent again after a back-off (the browser never went offline), and answered from the first time.
  await expect.poll(() => keys.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await expect(bowling.getByRole('status', { name: 'Your vote for Bowling is waiting for connection' })).toBeHidden();
  await expect(bowling.getByRole('button', { name: 'Vote for Bowling (1 vote)' })).toHaveAttribute('aria-pressed', 'true');
  expect(new Set(keys).size).toBe(1);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(replayed).toContain('true');
  expect(await stored(page)).toBe(0);

  const voters = await apiCall<Array<{ name: string }>>('GET', `/api/ideas/${idea.id}/voters`, undefined, token);
  expect(voters.map((v) => v.name)).toEqual(['Gia']);
});

test('a vote made offline arrives by Background Sync with the tab closed, and the reopened page shows it without sending it again', async ({ browser }) => {
  const { token, plan, idea } = await hostPlan(browser);
  const { context, page } = await guestPhone(browser, plan);
  const origin = new URL(page.url()).origin;
  const bowling = page.getByRole('article', { name: 'Bowling' });
  await expect(bowling.getByRole('button', { name: 'Vote for Bowling (0 votes)' })).toBeVisible();
  // The app's worker runs the page (installed after load, when the page is idle).
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL), { timeout: 15_000 }).toMatch(/\/sw\.js$/);

  await context.setOffline(true);
  await bowling.getByRole('button', { name: 'Vote for Bowling (0 votes)' }).click();
  await expect(bowling.getByRole('status', { name: 'Your vote for Bowling is waiting for connection' })).toBeVisible();
  // Handed to the worker too (service-worker/background-sync.ts), and a sync registered.
  const handedToWorker = () => page.evaluate(async () => (await (await caches.open('hangplan-outbox')).keys()).map((r) => new URL(r.url).pathname));
  await expect.poll(handedToWorker).toEqual([expect.stringMatching(/^\/__hangplan-outbox\/handed\//)]);
  expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready) as unknown as { sync: { getTags(): Promise<string[]> } }).sync.getTags())).toContain('hangplan-outbox');

  // The tab is closed; later the network is back and the browser wakes the
  // worker (DevTools fires the sync as the browser would; its own timing is
  // the browser's business).
  await page.close();
  const blank = await context.newPage();
  await context.setOffline(false);
  const worker = await serviceWorkerOf(blank, origin);
  await expect(async () => {
    await worker.cdp.send('ServiceWorker.dispatchSyncEvent', { origin, registrationId: worker.registrationId, tag: 'hangplan-outbox', lastChance: false });
    const voters = await apiCall<Array<{ name: string }>>('GET', `/api/ideas/${idea.id}/voters`, undefined, token);
    expect(voters.map((v) => v.name)).toEqual(['Gia']);
  }).toPass({ timeout: 20_000 });

  // Opened again: the worker's answer settles the waiting vote; nothing is sent again.
  const votes: string[] = [];
  blank.on('request', (request) => void (request.method() === 'POST' && request.url().includes('/vote') && votes.push(request.url())));
  await blank.goto(`/l/${plan.slug}/dashboard`);
  const again = blank.getByRole('article', { name: 'Bowling' });
  await expect(again.getByRole('button', { name: 'Vote for Bowling (1 vote)' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => stored(blank)).toBe(0);
  await expect(again.getByRole('status', { name: 'Your vote for Bowling is waiting for connection' })).toBeHidden();
  expect(votes).toEqual([]);
  await expect.poll(() => blank.evaluate(async () => (await (await caches.open('hangplan-outbox')).keys()).length)).toBe(0);
  const ideas = await apiCall<Idea[]>('GET', `/api/plans/${plan.id}/ideas`, undefined, token);
  expect(ideas.find((i) => i.id === idea.id)?.voteCount).toBe(1);
});

test('an answer made offline is a PUT the worker sends with the tab closed; the reopened page shows it and sends nothing', async ({ browser }) => {
  // Who's coming (docs/decisions/0103-whos-coming-on-the-screens.md): the outbox kind answer-rsvp.
  const { token, plan, idea } = await hostPlan(browser);
  await apiPost(`/api/plans/${plan.id}/pick-idea`, { ideaId: idea.id }, token);
  await apiPost(`/api/plans/${plan.id}/lock-date`, { date: localDate(1) }, token);
  const { context, page } = await guestPhone(browser, plan);
  const origin = new URL(page.url()).origin;
  const coming = page.getByRole('region', { name: 'Are you coming?' });
  await expect(coming.getByRole('button', { name: 'Going' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL), { timeout: 15_000 }).toMatch(/\/sw\.js$/);

  await context.setOffline(true);
  await coming.getByRole('button', { name: 'Going' }).click();
  await expect(coming.getByText("You're going")).toBeVisible();
  await expect(coming.getByRole('status', { name: 'Your answer is waiting for connection' })).toHaveText('Waiting for connection');
  const handedToWorker = () => page.evaluate(async () => (await (await caches.open('hangplan-outbox')).keys()).map((r) => new URL(r.url).pathname));
  await expect.poll(handedToWorker).toEqual([expect.stringMatching(/^\/__hangplan-outbox\/handed\//)]);

  await page.close();
  const blank = await context.newPage();
  await context.setOffline(false);
  const worker = await serviceWorkerOf(blank, origin);
  await expect(async () => {
    await worker.cdp.send('ServiceWorker.dispatchSyncEvent', { origin, registrationId: worker.registrationId, tag: 'hangplan-outbox', lastChance: false });
    const rsvps = await apiCall<{ going: number; people: Array<{ name: string; answer: string | null }> }>('GET', `/api/plans/${plan.id}/rsvps`, undefined, token);
    expect(rsvps.people.find((person) => person.name === 'Gia')?.answer).toBe('going');
    expect(rsvps.going).toBe(1);
  }).toPass({ timeout: 20_000 });

  const sent: string[] = [];
  blank.on('request', (request) => void (request.method() === 'PUT' && sent.push(request.url())));
  await blank.goto(`/l/${plan.slug}/dashboard`);
  const again = blank.getByRole('region', { name: 'Are you coming?' });
  await expect(again.getByText("You're going")).toBeVisible();
  await expect(again.getByRole('button', { name: 'Going' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => stored(blank)).toBe(0);
  await expect(again.getByRole('status', { name: 'Your answer is waiting for connection' })).toBeHidden();
  expect(sent).toEqual([]);
});
