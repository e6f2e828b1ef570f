// Live plans (docs/live-updates.md), two phones, no reloads: the host on the plan page and
// a guest on the dashboard see each other's changes as they happen (within the
// issue's 2 s budget for a loaded machine), a phone that was offline catches up
// when it is back, and a deleted plan says so. Every page below is loaded once;
// a reload of either phone fails the test.
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiCall, apiPost as post, localDate, longDate, signInViaApi, uniqueEmail } from './support.ts';

/** The budget: within 1 s as a rule, 2 s on a loaded machine. */
const LIVE = { timeout: 2_000 };

async function phone(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/**
 * Marks the loaded document; `reloaded()` tells whether it has since been
 * replaced (a reload or a full navigation). In-app route and tab changes keep
 * the document, so they do not count.
 */
function watchForReloads(page: Page): { loaded: () => Promise<void>; reloaded: () => Promise<boolean> } {
  return {
    loaded: () => page.evaluate(() => void ((window as { __sameDocument?: boolean }).__sameDocument = true)),
    reloaded: async () => !(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true)),
  };
}

test('the host and a guest see each other live: join, idea, vote, comment, pick, lock, time, answer, unlock, delete', async ({
  browser,
}) => {
  const host = await phone(browser);
  const hostToken = await signInViaApi(host, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Live bowling', isOpenInvite: true }, hostToken);

  // The host's phone: the plan page, opened once.
  await host.goto(`/plan/${plan.id}`);
  const hostNav = watchForReloads(host);
  await expect(host.getByRole('button', { name: 'See everyone coming (1)' })).toBeVisible();
  await hostNav.loaded();

  // A guest joins from the link on the second phone: the host sees them come.
  const guest = await phone(browser);
  await guest.goto(`/l/${plan.slug}`);
  await guest.getByLabel("What's your name?").fill('Gia');
  await guest.getByRole('button', { name: 'Continue' }).click();
  await expect(guest.getByText('Welcome, Gia')).toBeVisible();
  const guestNav = watchForReloads(guest);
  await guestNav.loaded();
  await expect(host.getByRole('button', { name: 'See everyone coming (2)' })).toBeVisible(LIVE);

  // The guest suggests an idea and votes for it: the host sees both.
  await guest.getByRole('textbox', { name: 'Suggest a new idea' }).fill('Strike lanes');
  await guest.getByRole('button', { name: 'Add', exact: true }).click();
  const hostIdea = host.getByRole('article', { name: 'Strike lanes' });
  await expect(hostIdea).toBeVisible(LIVE);
  const guestIdea = guest.getByRole('article', { name: 'Strike lanes' });
  await guestIdea.getByRole('button', { name: 'Vote for Strike lanes (0 votes)' }).click();
  await expect(hostIdea.getByRole('button', { name: 'Vote for Strike lanes (1 vote)' })).toBeVisible(LIVE);
  await expect(hostIdea.getByRole('img', { name: '1 vote: Gia (Guest)' })).toBeVisible(LIVE);

  // The guest starts typing a comment; the host comments meanwhile: the
  // guest's half-typed text survives the refresh, and the host's arrives.
  await guestIdea.getByRole('button', { name: 'Add comment' }).click();
  const guestBox = guestIdea.getByRole('textbox', { name: 'Add a comment on Strike lanes' });
  await guestBox.fill('I can bri');
  await hostIdea.getByRole('button', { name: /comment/ }).click();
  const hostBox = hostIdea.getByRole('textbox', { name: 'Add a comment on Strike lanes' });
  await hostBox.fill('Booked lane 4');
  await hostBox.press('Enter');
  await expect(guestIdea.getByText('Booked lane 4')).toBeVisible(LIVE);
  await expect(guestBox).toHaveValue('I can bri');
  await guestBox.fill('I can bring shoes');
  await guestBox.press('Enter');
  await expect(hostIdea.getByText('I can bring shoes')).toBeVisible(LIVE);

  // The host picks the idea: the guest's idea card and status say so.
  await hostIdea.getByRole('button', { name: 'Pick', exact: true }).click();
  await expect(guestIdea.getByText("Host's Pick")).toBeVisible(LIVE);
  const guestStatus = guest.getByRole('region', { name: 'Plan Status' });
  await expect(guestStatus).toContainText('Strike lanes', LIVE);

  // The guest says when they are free (the availability tab of the dashboard),
  // while the host looks at the plan's availability: opened first, so that the
  // budget is the vote's way to the host, not the tab's first load.
  const tomorrow = localDate(1);
  await host.getByRole('tab', { name: /Availability/ }).click();
  await expect(host.getByRole('region', { name: 'Next 2 Weeks' })).toBeVisible();
  await guest.getByRole('tab', { name: /^Availability/ }).click();
  await guest
    .getByRole('region', { name: 'Next 2 Weeks' })
    .getByRole('button', { name: new RegExp(`^${longDate(tomorrow)}:`) })
    .click();
  const shortTomorrow = new Date(`${tomorrow}T12:00`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric' });
  const hostRow = host.getByRole('listitem').filter({ hasText: shortTomorrow });
  await expect(hostRow.getByRole('img', { name: /^1 vote: / })).toBeVisible(LIVE);

  // The host locks the date and sets the time: the guest sees the date, then the confirmed time.
  await hostRow.getByRole('button', { name: 'Pick Date' }).click();
  await expect(guestStatus).toContainText(longDate(tomorrow), LIVE);
  const panel = host.getByRole('region', { name: 'Set Event Time' });
  await panel.getByLabel('Event time').fill('19:30');
  await panel.getByRole('button', { name: 'Set Time' }).click();
  const confirmed = guest.getByRole('region', { name: 'Event Time Confirmed!' });
  await expect(confirmed).toContainText('7:30PM', LIVE);

  // The location, set by the host, reaches the guest's status card.
  await post(`/api/plans/${plan.id}/location`, { location: 'Strike City, lane 4' }, hostToken);
  await expect(guestStatus).toContainText('Strike City, lane 4', LIVE);

  // The date set, the guest is asked (docs/decisions/0103-whos-coming-on-the-screens.md):
  // their Going with a friend reaches the host's counts.
  const coming = guest.getByRole('region', { name: 'Are you coming?' });
  await coming.getByRole('button', { name: 'Going' }).click();
  await coming.getByRole('button', { name: 'One more' }).click();
  await expect(coming.getByText("You're going with 1 friend")).toBeVisible();
  await expect(host.getByRole('region', { name: 'Plan Status' })).toContainText('1 going · 2 with friends', LIVE);

  // Unlock & Revote: the guest is back to voting, and no longer asked.
  await host.keyboard.press('Escape');
  await host.getByRole('region', { name: 'Final Time Set' }).getByRole('button', { name: 'Unlock & Revote' }).click();
  await expect(guest.getByRole('heading', { name: 'When are you free?' })).toBeVisible(LIVE);
  await expect(confirmed).toBeHidden();
  await expect(coming).toBeHidden();

  // The host deletes the plan: the guest's page says it is gone.
  await apiCall('DELETE', `/api/plans/${plan.id}`, undefined, hostToken);
  await expect(guest.getByText('Plan not found')).toBeVisible(LIVE);

  expect(await hostNav.reloaded(), 'the host page reloaded').toBe(false);
  expect(await guestNav.reloaded(), 'the guest page reloaded').toBe(false);
});

test('a phone that was offline catches up by itself when it is back', async ({ browser }) => {
  const host = await phone(browser);
  const hostToken = await signInViaApi(host, uniqueEmail('host'), { firstName: 'Otis', lastName: 'Offline' });
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Offline test', isOpenInvite: true }, hostToken);
  await post(`/api/plans/${plan.id}/ideas`, { text: 'First idea' }, hostToken);

  const guestSession = await post<{ id: string; name: string }>('/api/guest-session', { name: 'Olly', planId: plan.id });
  const guestContext = await browser.newContext();
  await guestContext.addInitScript((session) => {
    if (!localStorage.getItem('guestSession')) localStorage.setItem('guestSession', JSON.stringify(session));
  }, { ...guestSession, planId: plan.id });
  const guest = await guestContext.newPage();
  await guest.goto(`/l/${plan.slug}/dashboard`);
  await expect(guest.getByRole('article', { name: 'First idea' })).toBeVisible();
  const nav = watchForReloads(guest);
  await nav.loaded();

  // Offline: the change made meanwhile cannot arrive...
  await guestContext.setOffline(true);
  await post(`/api/plans/${plan.id}/ideas`, { text: 'Made while offline' }, hostToken);
  await post(`/api/plans/${plan.id}/location`, { location: 'The old mill' }, hostToken);
  await guest.waitForTimeout(1500);
  await expect(guest.getByRole('article', { name: 'Made while offline' })).toBeHidden();

  // ...back online, the phone reconnects and refetches once.
  const refetches: string[] = [];
  guest.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname.startsWith('/api/') && !url.pathname.endsWith('/events')) {
      refetches.push(url.pathname);
    }
  });
  await guestContext.setOffline(false);
  await expect(guest.getByRole('article', { name: 'Made while offline' })).toBeVisible({ timeout: 5_000 });
  await expect(guest.getByRole('region', { name: 'Plan Status' })).toContainText('The old mill');
  // One refetch per query, not a burst.
  const counts = refetches.reduce<Record<string, number>>((acc, path) => ({ ...acc, [path]: (acc[path] ?? 0) + 1 }), {});
  for (const [path, count] of Object.entries(counts)) expect(count, `GET ${path}`).toBeLessThanOrEqual(1);
  expect(await nav.reloaded(), 'the guest page reloaded').toBe(false);
});
