// Dates and the lock, end to end (issue "Dates and the lock"): a guest and a
// member vote on dates in their own browsers, the host picks a date and sets
// 7:30 PM, everyone sees the confirmed time, the .ics downloads and parses,
// the member gets the e-mail, and unlocking returns to voting.
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiCall, apiPost as post, localDate, runScheduler, signInViaApi, uniqueEmail } from './support.ts';

/** 'Saturday, March 14, 2026'. */
function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(y!, m! - 1, d!).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
}

/** The day after 'YYYY-MM-DD', as 'YYYYMMDD'. */
const nextDay = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');

const dayButton = (page: Page, iso: string) =>
  page.getByRole('region', { name: 'Next 2 Weeks' }).getByRole('button', { name: new RegExp(`^${longDate(iso)}:`) });

async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  return (await browser.newContext(options)).newPage();
}

interface MaildevMail {
  to: Array<{ address: string }>;
  subject: string;
}

test('guest and member vote, the host locks a date and sets the time, then unlocks', async ({ browser }) => {
  const tomorrow = localDate(1);
  const later = localDate(20);

  // The host's plan with a picked idea, by API.
  // The host's phone is in São Paulo (UTC-3 all year): the calendar files carry the instant the host meant.
  const hostPage = await newPage(browser, { timezoneId: 'America/Sao_Paulo' });
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Bowling night', isOpenInvite: true }, hostToken);
  const idea = await post<{ id: string }>(`/api/plans/${plan.id}/ideas`, { text: 'Strike City lanes' }, hostToken);
  await post(`/api/plans/${plan.id}/pick-idea`, { ideaId: idea.id }, hostToken);

  // A member (account) joins by API.
  const memberEmail = uniqueEmail('member');
  const memberPage = await newPage(browser);
  const memberToken = await signInViaApi(memberPage, memberEmail, { firstName: 'Milo', lastName: 'Member' });
  await post(`/api/plans/${plan.id}/join`, { name: 'Milo Member' }, memberToken);

  // A guest, with its session in the guest's own browser.
  const guest = await post<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Gail Guest', planId: plan.id });
  const guestPage = await newPage(browser);
  await guestPage.addInitScript((session) => {
    localStorage.setItem('guestSession', JSON.stringify(session));
  }, { id: guest.id, name: guest.name, planId: plan.id, secret: guest.secret });

  // The guest marks tomorrow on the availability page (step 2 of 3) and submits.
  await guestPage.goto(`/l/${plan.slug}/availability`);
  await expect(guestPage.getByRole('heading', { level: 1, name: 'When are you free?' })).toBeVisible();
  await expect(guestPage.getByText('Step 2 of 3')).toBeVisible();
  await expect(guestPage.getByRole('heading', { name: "Don't lose your choices" })).toBeVisible();
  await dayButton(guestPage, tomorrow).click();
  await expect(dayButton(guestPage, tomorrow)).toHaveAttribute('aria-pressed', 'true');
  await expect(dayButton(guestPage, tomorrow)).toHaveAccessibleName(`${longDate(tomorrow)}: 1 vote, you're free`);
  const mirrored = await guestPage.evaluate(() => JSON.parse(localStorage.getItem('guestVotes') ?? 'null'));
  expect(mirrored.timeSlotIds).toHaveLength(1);
  await guestPage.getByRole('button', { name: 'Submit Availability' }).click();
  await expect(guestPage.getByText('Availability submitted!')).toBeVisible();
  await expect(guestPage).toHaveURL(new RegExp(`/l/${plan.slug}`));

  // The member marks tomorrow, and a day three weeks out through the Date Picker.
  await memberPage.goto(`/plan/${plan.id}/availability`);
  await expect(dayButton(memberPage, tomorrow)).toHaveAccessibleName(`${longDate(tomorrow)}: 1 vote`);
  await dayButton(memberPage, tomorrow).click();
  await expect(dayButton(memberPage, tomorrow)).toHaveAccessibleName(`${longDate(tomorrow)}: 2 votes, you're free`);
  await memberPage.getByRole('button', { name: /Date Picker/ }).click();
  const picker = memberPage.getByRole('region', { name: 'Date Picker' });
  const laterDay = picker.getByRole('button', { name: new RegExp(`^${longDate(later)}`) });
  if (!(await laterDay.isVisible())) await picker.getByRole('button', { name: 'Next month' }).click();
  await laterDay.click();
  await memberPage.getByRole('button', { name: 'OK (1 date)' }).click();
  const laterRow = memberPage.getByRole('listitem').filter({ hasText: new Date(`${later}T12:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric' }) });
  await expect(laterRow.getByText('1 vote')).toBeVisible();

  // The host sees both votes with the voters, and picks tomorrow.
  await hostPage.goto(`/plan/${plan.id}?tab=availability`);
  const shortTomorrow = new Date(`${tomorrow}T12:00`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric' });
  const row = hostPage.getByRole('listitem').filter({ hasText: shortTomorrow });
  await expect(row.getByRole('img', { name: /^2 votes: / })).toBeVisible();
  await expect(row.getByRole('img', { name: /^2 votes: / })).toHaveAccessibleName(/Gail Guest/);
  await row.getByRole('button', { name: 'Pick Date' }).click();
  const panel = hostPage.getByRole('region', { name: 'Set Event Time' });
  await expect(panel.getByText(longDate(tomorrow))).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Set Time' })).toBeDisabled();

  // 7:30 PM: sent as 19:30, shown as 7:30 PM.
  const sentAfter = Date.now() - 1000;
  await panel.getByLabel('Event time').fill('19:30');
  await expect(panel.getByText('Everyone will see 7:30 PM.')).toBeVisible();
  await panel.getByRole('button', { name: 'Set Time' }).click();
  const final = hostPage.getByRole('region', { name: 'Final Time Set' });
  await expect(final).toContainText(`${longDate(tomorrow)} at 7:30PM`);
  await expect(final).toContainText('All participants have been notified of the final event time.');
  await expect(hostPage.getByRole('region', { name: 'Plan Status' })).toContainText(`${longDate(tomorrow)} at 7:30 PM`);

  // The guest's dashboard shows the confirmed time after a reload.
  await guestPage.goto(`/l/${plan.slug}/dashboard`);
  await guestPage.getByRole('tab', { name: /Availability/ }).click();
  await guestPage.reload();
  await guestPage.getByRole('tab', { name: /Availability/ }).click();
  const confirmed = guestPage.getByRole('region', { name: 'Event Time Confirmed!' });
  await expect(confirmed).toContainText(longDate(tomorrow));
  await expect(confirmed).toContainText('7:30PM');
  await expect(confirmed).toContainText('The host has set the final event time. See you there!');

  // The .ics from the plan page's header: 7:30 PM in São Paulo, 22:30 UTC, for 2 hours.
  await hostPage.getByRole('button', { name: 'Add to Calendar' }).click();
  await expect(hostPage.getByRole('menuitem', { name: 'Google Calendar' })).toHaveAttribute(
    'href',
    new RegExp(`dates=${tomorrow.replaceAll('-', '')}T223000Z%2F${nextDay(tomorrow)}T003000Z`),
  );
  const [download] = await Promise.all([
    hostPage.waitForEvent('download'),
    hostPage.getByRole('menuitem', { name: 'Download .ics' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('strike-city-lanes.ics');
  const ics = (await readFile(await download.path())).toString('utf8').replace(/\r\n[ \t]/g, '');
  const lines = ics.split('\r\n');
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  expect(lines).toContain(`DTSTART:${tomorrow.replaceAll('-', '')}T223000Z`);
  expect(lines).toContain(`DTEND:${nextDay(tomorrow)}T003000Z`);
  expect(lines).toContain('SUMMARY:Strike City lanes');
  expect(lines).toContain(`UID:plan-${plan.id}@hangplan`);
  expect(lines).toContain('END:VEVENT');

  // The member is e-mailed the time.
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${process.env.E2E_MAIL_URL}/email`)).json()) as Array<MaildevMail & { date: string }>;
        return mails.find(
          (m) =>
            m.to.some((t) => t.address.toLowerCase() === memberEmail.toLowerCase()) &&
            new Date(m.date).getTime() >= sentAfter &&
            m.subject.startsWith('Time set:'),
        )?.subject;
      },
      { timeout: 15_000, message: 'the "time is set" e-mail to the member' },
    )
    .toBe(`Time set: Strike City lanes on ${longDate(tomorrow)} at 7:30 PM`);

  // Unlock & Revote: back to voting, the votes kept.
  await hostPage.keyboard.press('Escape');
  await final.getByRole('button', { name: 'Unlock & Revote' }).click();
  await expect(hostPage.getByRole('heading', { name: 'When are you free?' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Pick Date' })).toBeVisible();
  await expect(hostPage.getByRole('button', { name: 'Add to Calendar' })).toBeHidden();
  await expect(dayButton(hostPage, tomorrow)).toHaveAccessibleName(`${longDate(tomorrow)}: 2 votes`);
  await guestPage.reload();
  await guestPage.getByRole('tab', { name: /Availability/ }).click();
  await expect(guestPage.getByRole('heading', { name: 'When are you free?' })).toBeVisible();
  await expect(dayButton(guestPage, tomorrow)).toHaveAttribute('aria-pressed', 'true');
});

// Answers on dates (decision 0109): three phones answer yes, if need be and
// none of these work; the host's view and the deadline's automatic lock pick
// the same date by the API's one ranking (most yes, then most if need be, then
// the earliest).
test('yes, if need be and none of these work: the host and the automatic lock pick the same date', async ({ browser }) => {
  const day2 = localDate(2);
  const day3 = localDate(3);
  const shortDay = (iso: string) => new Date(`${iso}T12:00`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric' });

  const hostPage = await newPage(browser);
  const hostToken = await signInViaApi(hostPage, uniqueEmail('host'), { firstName: 'Hana', lastName: 'Host' });
  const plan = await post<{ id: string; slug: string }>('/api/plans', { title: 'Picnic', isOpenInvite: true }, hostToken);
  await post(`/api/plans/${plan.id}/ideas`, { text: 'Park lawn' }, hostToken);

  // Ada says yes to two days; she watches her grid while the others answer.
  const adaPage = await newPage(browser);
  const adaToken = await signInViaApi(adaPage, uniqueEmail('ada'), { firstName: 'Ada', lastName: 'Yes' });
  await post(`/api/plans/${plan.id}/join`, { name: 'Ada Yes' }, adaToken);
  await adaPage.goto(`/plan/${plan.id}/availability`);
  await dayButton(adaPage, day2).click();
  await expect(dayButton(adaPage, day2)).toHaveAccessibleName(`${longDate(day2)}: 1 vote, you're free`);
  await dayButton(adaPage, day3).click();
  await expect(dayButton(adaPage, day3)).toHaveAccessibleName(`${longDate(day3)}: 1 vote, you're free`);

  // Ben, a guest, can make the later day if need be: the switch, then a tap.
  const ben = await post<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Ben Maybe', planId: plan.id });
  const benPage = await newPage(browser);
  await benPage.addInitScript((session) => localStorage.setItem('guestSession', JSON.stringify(session)), {
    id: ben.id,
    name: ben.name,
    planId: plan.id,
    secret: ben.secret,
  });
  await benPage.goto(`/l/${plan.slug}/availability`);
  await benPage.getByRole('radiogroup', { name: 'A tap says' }).getByText('If need be').click();
  await dayButton(benPage, day3).click();
  await expect(dayButton(benPage, day3)).toHaveAttribute('aria-pressed', 'mixed');
  await expect(dayButton(benPage, day3)).toHaveAccessibleName(`${longDate(day3)}: 1 yes, 1 if need be, you're free if need be`);
  // Live on Ada's phone, with no reload.
  await expect(dayButton(adaPage, day3)).toHaveAccessibleName(`${longDate(day3)}: 1 yes, 1 if need be, you're free`);

  // Cy, a guest, can make none of them.
  const cy = await post<{ id: string; name: string; secret: string }>('/api/guest-session', { name: 'Cy None', planId: plan.id });
  const cyPage = await newPage(browser);
  await cyPage.addInitScript((session) => localStorage.setItem('guestSession', JSON.stringify(session)), {
    id: cy.id,
    name: cy.name,
    planId: plan.id,
    secret: cy.secret,
  });
  await cyPage.goto(`/l/${plan.slug}/availability`);
  const none = cyPage.getByRole('switch', { name: 'None of these dates work for me' });
  await none.click();
  await expect(none).toBeChecked();
  await expect(cyPage.getByText("The host sees that you can't make any of these.")).toBeVisible();

  // The host: Cy is not waited on but named apart; the later day leads (a tie on yes, won by if need be).
  await hostPage.goto(`/plan/${plan.id}`);
  const waiting = hostPage.getByRole('region', { name: 'Waiting on' });
  await expect(waiting.getByRole('list', { name: "1 can't make any of these" })).toHaveText('Cy None (Guest)');
  await expect(waiting).not.toContainText('Ben Maybe');
  await hostPage.goto(`/plan/${plan.id}?tab=availability`);
  const row3 = hostPage.getByRole('listitem').filter({ hasText: shortDay(day3) });
  await expect(row3.getByText('Leading')).toBeVisible();
  await expect(row3.getByText('1 yes, 1 if need be')).toBeVisible();
  await expect(row3.getByRole('img', { name: '1 yes, 1 if need be: Ada Yes, Ben Maybe (Guest) (if need be)' })).toBeVisible();
  await expect(hostPage.getByRole('listitem').filter({ hasText: shortDay(day2) }).getByText('Leading')).toBeHidden();

  // A deadline two seconds ahead with its automatic lock; once it passes, a
  // scheduler run locks the same date (asked again until the deadline is past).
  await post(`/api/plans/${plan.id}/deadline`, { deadline: new Date(Date.now() + 2_000).toISOString(), autoLock: true }, hostToken);
  await expect
    .poll(
      async () => {
        await runScheduler();
        return (await apiCall<{ lockedTimeSlotDate: string | null }>('GET', `/api/plans/${plan.id}`, undefined, hostToken)).lockedTimeSlotDate;
      },
      { timeout: 15_000, message: 'the automatic lock at the deadline' },
    )
    .toBe(day3);
  await hostPage.reload();
  await expect(hostPage.getByRole('region', { name: 'Plan Status' })).toContainText(longDate(day3));
});
