// Who's coming, on four phones (docs/api-after-the-date.md "Who's coming",
// "Co-hosts", "Cancelling a plan"; docs/decisions/0095-0103): once the date is
// set, the host, a member and two guests answer from their own phones and the
// headcount moves live on the others; with 3 spots the fourth Going waits,
// and is promoted the moment the member drops; the host makes the member a
// co-host, who sets the time; the host cancels, and every phone says so.
// Every page is loaded once: the phones follow the plan live, no reloads.
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiPost, localDate, signInViaApi, uniqueEmail } from './support.ts';

/** Live changes arrive within a second as a rule, 2 s on a loaded machine (docs/live-updates.md). */
const LIVE = { timeout: 2_000 };

async function phone(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

async function joinAsGuest(browser: Browser, slug: string, name: string): Promise<Page> {
  const page = await phone(browser);
  await page.goto(`/l/${slug}`);
  await page.getByLabel("What's your name?").fill(name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(`Welcome, ${name}`)).toBeVisible();
  return page;
}

test('four phones answer, the headcount moves live, the waitlist is promoted, a co-host sets the time, and the host cancels', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const host = await phone(browser);
  const hostToken = await signInViaApi(host, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
  const plan = await apiPost<{ id: string; slug: string }>('/api/plans', { title: 'Ramen Friday', isOpenInvite: true }, hostToken);
  const mo = await phone(browser);
  const moToken = await signInViaApi(mo, uniqueEmail('mo'), { firstName: 'Mo', lastName: 'Member' });
  await apiPost(`/api/plans/${plan.id}/join`, {}, moToken);
  // The date is set and there are 3 spots: the answers open.
  await apiPost(`/api/plans/${plan.id}/lock-date`, { date: localDate(3) }, hostToken);
  await apiPost(`/api/plans/${plan.id}/capacity`, { capacity: 3 }, hostToken);

  await host.goto(`/plan/${plan.id}`);
  await mo.goto(`/plan/${plan.id}`);
  const gia = await joinAsGuest(browser, plan.slug, 'Gia');
  const gus = await joinAsGuest(browser, plan.slug, 'Gus');
  const phones = { host, mo, gia, gus };
  for (const page of Object.values(phones)) {
    await page.evaluate(() => void ((window as { __sameDocument?: boolean }).__sameDocument = true));
  }
  const coming = (page: Page) => page.getByRole('region', { name: 'Are you coming?' });
  const status = (page: Page) => page.getByRole('region', { name: 'Plan Status' });

  // Nobody has answered: everyone is asked first thing.
  for (const page of Object.values(phones)) await expect(coming(page)).toBeVisible();
  await expect(status(host)).toContainText('4 people joined');

  // The host, the member and Gia say Going: each answer reaches the others.
  await coming(host).getByRole('button', { name: 'Going' }).click();
  await expect(coming(host).getByText("You're going")).toBeVisible();
  await expect(status(gus)).toContainText('1 going', LIVE);
  await coming(mo).getByRole('button', { name: 'Going' }).click();
  await expect(status(gia)).toContainText('2 going', LIVE);
  await coming(gia).getByRole('button', { name: 'Going' }).click();
  await expect(status(host)).toContainText('3 going', LIVE);
  await expect(status(mo)).toContainText('3 going', LIVE);

  // Every spot is taken: Gus's Going waits, first in line, and the count stays.
  await expect(coming(gus).getByText('Every spot is taken: Going puts you on the waitlist.')).toBeVisible(LIVE);
  await coming(gus).getByRole('button', { name: 'Going' }).click();
  await expect(coming(gus).getByText("You're on the waitlist: #1")).toBeVisible();
  await expect(status(host)).toContainText('3 going');

  // Mo can't make it after all: the spot goes to Gus at once, on Gus's phone too.
  await coming(mo).getByRole('button', { name: "Can't go" }).click();
  await expect(coming(gus).getByText("You're going")).toBeVisible(LIVE);
  await expect(status(host)).toContainText('3 going', LIVE);

  // The host makes Mo a co-host; Mo's phone gets the host's time panel and sets the time.
  await host.getByRole('button', { name: 'See everyone coming (4)' }).click();
  const everyone = host.getByRole('list', { name: 'Everyone coming' });
  await everyone.getByRole('button', { name: 'Make Mo Member a co-host' }).click();
  await expect(everyone.getByRole('button', { name: 'Remove Mo Member as co-host' })).toBeVisible();
  await host.keyboard.press('Escape');
  const panel = mo.getByRole('region', { name: 'Set Event Time' });
  await expect(panel).toBeVisible(LIVE);
  await expect(mo.getByRole('button', { name: 'Delete Plan' })).toHaveCount(0);
  await panel.getByLabel('Event time').fill('19:30');
  await panel.getByRole('button', { name: 'Set Time' }).click();
  for (const page of [host, gia, gus]) await expect(status(page)).toContainText('at 7:30 PM', LIVE);
  // A first time for the date answered keeps the answers (docs/decisions/0097-a-new-date-asks-again.md).
  await expect(coming(gus).getByText("You're going")).toBeVisible();
  await expect(status(host)).toContainText('3 going');

  // The host cancels, with a word for everyone: every phone says so, and nobody is asked any more.
  await host.getByRole('button', { name: 'Cancel Plan' }).click();
  const dialog = host.getByRole('dialog');
  await dialog.getByLabel('Message to everyone (optional)').fill('Kenji is closed, sorry!');
  await dialog.getByRole('button', { name: 'Cancel Plan' }).click();
  for (const page of Object.values(phones)) {
    const cancelled = page.getByRole('status').filter({ hasText: 'Cancelled' });
    await expect(cancelled).toContainText('Kenji is closed, sorry!', LIVE);
    await expect(coming(page)).toBeHidden();
  }

  for (const [name, page] of Object.entries(phones)) {
    const same = await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true);
    expect(same, `${name}'s phone reloaded`).toBe(true);
  }
});
