// The whole story, end to end, once per project (phone 390×844 with touch,
// and desktop 1280×800): a host signs up and creates a plan, two guests and a
// member join from the link in browsers of their own, everyone suggests, votes
// and comments, the host picks the idea, the place, the date and the time,
// everyone sees the confirmed plan, a guest signs up and keeps the votes, the
// member leaves and the host deletes the plan. Each person has a browser
// context of their own; both projects share one stack, so every run uses its
// own addresses and plan title.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { check, phonePage } from './axe.ts';
import { expect, test } from './fixtures.ts';
import {
  icsLines,
  latestCode,
  localDate,
  longDate,
  mailAttachment,
  signInViaApi,
  uniqueEmail,
  waitForMail,
} from './support.ts';

const api = (path: string) => `${process.env.E2E_WEB_URL}${path}`;

async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  return (await browser.newContext(options)).newPage();
}

/** Types the six digits into the code step (it submits by itself on the sixth). */
async function enterCode(page: Page, code: string) {
  await page.getByRole('textbox').first().click();
  await page.keyboard.type(code);
}

const dayButton = (page: Page, iso: string) =>
  page.getByRole('region', { name: 'Next 2 Weeks' }).getByRole('button', { name: new RegExp(`^${longDate(iso)}:`) });

const idea = (page: Page, text: string) => page.getByRole('article', { name: text });
const voteButton = (page: Page, text: string, votes: string) =>
  idea(page, text).getByRole('button', { name: `Vote for ${text} (${votes})` });

test('the whole story: sign up, share, join, vote, lock, confirm, sign up as a guest, leave, delete', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const run = `${testInfo.project.name}-${randomUUID().slice(0, 4)}`;
  const title = `Weekend hangout ${run}`;
  const picnic = 'Picnic in Dolores Park';
  const bowling = 'Bowling downtown';
  const tomorrow = localDate(1);
  const dayAfter = localDate(2);
  const place = 'Dolores Park, by the tennis courts';
  const mapLink = 'https://maps.example.com/dolores-park';
  const hostEmail = uniqueEmail('journey-host');
  const memberEmail = uniqueEmail('journey-member');
  const blakeEmail = uniqueEmail('journey-blake');

  // The host's phone is in India (UTC+5:30 all year): the calendars get the instant the host meant.
  const host = await newPage(browser, { timezoneId: 'Asia/Kolkata' });
  const alex = await newPage(browser);
  const blake = await newPage(browser);
  const member = await newPage(browser);

  // Each context carries the project's device: a phone is a touch screen, a desktop is not.
  const touch = testInfo.project.name === 'phone';
  expect(host.viewportSize()).toEqual(touch ? { width: 390, height: 844 } : { width: 1280, height: 800 });
  expect(await alex.evaluate(() => navigator.maxTouchPoints > 0)).toBe(touch);

  let planId = '';
  let link = '';
  let slug = '';

  await test.step('the host signs up from the landing page with the e-mailed code', async () => {
    await host.goto('/');
    const sentAfter = Date.now() - 1000;
    await host.getByRole('textbox', { name: /email/i }).first().fill(hostEmail);
    await host.getByRole('button', { name: 'Start Planning' }).click();
    await expect(host.getByText('Code sent!')).toBeVisible();
    await expect(host.getByText('Check your email for the verification code')).toBeVisible();
    await expect(host).toHaveURL(/\/auth\?returnTo=(%2F|\/)home$/);
    await expect(host.getByRole('button', { name: 'Verify & Continue' })).toBeDisabled();
    await enterCode(host, await latestCode(hostEmail, sentAfter));
    await expect(host).toHaveURL(/\/home$/);
    await expect(host.getByRole('heading', { name: 'Your Plans' })).toBeVisible();
    await expect(host.getByText('Ready to make plans?')).toBeVisible();
  });

  await test.step('the host gives a name on the profile', async () => {
    await host.getByRole('link', { name: /profile/i }).first().click();
    await expect(host).toHaveURL(/\/profile$/);
    await expect(host.getByLabel('Email Address')).toHaveValue(hostEmail);
    await host.getByLabel('First Name').fill('Hana');
    await host.getByLabel('Last Name').fill('Host');
    await host.getByRole('button', { name: 'Save Changes' }).click();
    await expect(host.getByText('Profile updated')).toBeVisible();
    await host.goto('/home');
    await expect(host.getByText('Welcome back, Hana Host!')).toBeVisible();
    await expect(host.getByText('HH', { exact: true })).toBeVisible();
  });

  await test.step('the host creates the plan and reads the link on the share page', async () => {
    await host.getByRole('link', { name: 'Create Your First Plan' }).or(host.getByRole('button', { name: 'Create Your First Plan' })).first().click();
    await expect(host).toHaveURL(/\/create-plan$/);
    const submit = host.getByRole('button', { name: 'Create & Share Plan' });
    await expect(submit).toBeDisabled();
    await host.getByLabel('What are you planning?').fill(title);
    await expect(host.getByRole('switch', { name: /Open Invitations/ })).toBeChecked();
    await expect(host.getByText('Allow invited people to invite others')).toBeVisible();
    await submit.click();
    await expect(host.getByText('Plan created!')).toBeVisible();
    await expect(host.getByText('Your plan is ready to share')).toBeVisible();
    await expect(host).toHaveURL(/\/plan\/[0-9a-f-]{36}\/share$/);
    planId = host.url().match(/\/plan\/([0-9a-f-]{36})\/share/)![1]!;

    await expect(host.getByRole('heading', { name: title })).toBeVisible();
    await expect(host.getByRole('img', { name: 'QR code of the plan link' })).toBeVisible();
    link = await host.getByRole('textbox', { name: 'Plan link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${process.env.E2E_WEB_URL}/l/[A-Za-z0-9_-]{8,}$`));
    slug = link.split('/l/')[1]!;
    // The share message: '{name} wants to hang out!', the invitation and the link.
    const whatsApp = decodeURIComponent((await host.getByRole('link', { name: /WhatsApp/ }).getAttribute('href'))!);
    expect(whatsApp).toContain('Hana Host wants to hang out!');
    expect(whatsApp).toContain("Click here to plan what you're doing and when. Looking forward to seeing you soon!");
    expect(whatsApp).toContain(link);
  });

  const dashboard = () => new RegExp(`/l/${slug}/dashboard(\\?.*)?$`);

  await test.step('two guests open the link on their own phones and join by name', async () => {
    for (const [page, name] of [
      [alex, 'Alex'],
      [blake, 'Blake'],
    ] as const) {
      await page.goto(link);
      await expect(page.getByText('Join the Plan')).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByText('Planning phase')).toBeVisible();
      await page.getByLabel("What's your name?").fill(name);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Welcome!', { exact: true })).toBeVisible();
      await expect(page.getByText("You've joined the planning session")).toBeVisible();
      await expect(page).toHaveURL(dashboard());
      await expect(page.getByText(`Welcome, ${name}`)).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    }
    await expect(blake.getByRole('region', { name: 'Plan Status' }).getByText('3 people joined')).toBeVisible();
  });

  await test.step('a signed-in member opens the link and is joined (retrying after a dropped request)', async () => {
    await signInViaApi(member, memberEmail, { firstName: 'Morgan', lastName: 'Member' });
    // The first join request is lost on the way (a phone between cell towers):
    // the page says who is joining and offers 'Join Plan' again.
    await member.route('**/api/plans/*/join', (route) => route.abort('failed'), { times: 1 });
    await member.goto(link);
    await expect(member.getByText('Join the Plan')).toBeVisible();
    await expect(member.getByText("You're signed in as Morgan Member")).toBeVisible();
    await expect(member.getByText('Failed to join plan')).toBeVisible();
    await member.getByRole('button', { name: 'Join Plan' }).click();
    await expect(member.getByText('Joined successfully!')).toBeVisible();
    await expect(member.getByText('This plan is now available on your home page')).toBeVisible();
    await expect(member).toHaveURL(new RegExp(`/plan/${planId}$`));
    await expect(member.getByRole('region', { name: 'Plan Status' }).getByText('4 people joined')).toBeVisible();
  });

  await test.step('they suggest, vote and comment on ideas (dashboard and plan page)', async () => {
    // Alex, on the dashboard's Ideas tab.
    await alex.getByRole('tab', { name: /^Ideas/ }).click();
    await expect(alex.getByText('No ideas yet')).toBeVisible();
    await alex.getByRole('textbox', { name: 'Suggest a new idea' }).fill(picnic);
    await alex.getByRole('button', { name: 'Add', exact: true }).click();
    await voteButton(alex, picnic, '0 votes').click();
    await expect(voteButton(alex, picnic, '1 vote')).toHaveAttribute('aria-pressed', 'true');
    await expect(alex.getByRole('tab', { name: 'Ideas, you voted' })).toBeVisible();

    // Morgan, on the plan page: a second idea through 'Add New Idea', a vote and a comment.
    await member.reload();
    await member.getByRole('textbox', { name: 'Add New Idea' }).fill(bowling);
    await member.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(idea(member, bowling)).toBeVisible();
    await voteButton(member, picnic, '1 vote').click();
    await expect(voteButton(member, picnic, '2 votes')).toHaveAttribute('aria-pressed', 'true');
    await expect(idea(member, picnic).getByText('Top Idea')).toBeVisible();
    await idea(member, picnic).getByRole('button', { name: 'Add comment' }).click();
    const memberComment = idea(member, picnic).getByRole('textbox', { name: `Add a comment on ${picnic}` });
    await memberComment.fill("I'll bring a blanket");
    await memberComment.press('Enter');
    await expect(idea(member, picnic).getByText("I'll bring a blanket")).toBeVisible();
    await expect(idea(member, picnic).getByRole('button', { name: '1 comment' })).toBeVisible();

    // Blake, on the dashboard: votes too, reads Morgan's comment and answers.
    await blake.reload();
    await blake.getByRole('button', { name: 'Vote on Ideas' }).click();
    await expect(blake.getByRole('tab', { name: /^Ideas/, selected: true })).toBeVisible();
    await voteButton(blake, picnic, '2 votes').click();
    await expect(voteButton(blake, picnic, '3 votes')).toHaveAttribute('aria-pressed', 'true');
    await idea(blake, picnic).getByRole('button', { name: '1 comment' }).click();
    await expect(idea(blake, picnic).getByText("I'll bring a blanket")).toBeVisible();
    const blakeComment = idea(blake, picnic).getByRole('textbox', { name: `Add a comment on ${picnic}` });
    await blakeComment.fill('Count me in');
    await blakeComment.press('Enter');
    await expect(idea(blake, picnic).getByRole('button', { name: '2 comments' })).toBeVisible();
  });

  await test.step('the host picks the idea and sets the location', async () => {
    await host.goto(`/plan/${planId}`);
    const ideas = host.getByRole('article');
    await expect(ideas.first()).toHaveAccessibleName(picnic); // sorted by votes
    await expect(voteButton(host, picnic, '3 votes')).toHaveAttribute('aria-pressed', 'false');
    await expect(idea(host, picnic).getByText('Top Idea')).toBeVisible();
    await expect(idea(host, picnic).getByRole('img', { name: /^3 votes: / })).toHaveAccessibleName(/Alex \(Guest\)/);
    await idea(host, picnic).getByRole('button', { name: '2 comments' }).click();
    await expect(idea(host, picnic).getByText('Count me in')).toBeVisible();

    const status = host.getByRole('region', { name: 'Plan Status' });
    await expect(status.getByRole('button', { name: 'Set Location' })).toBeHidden(); // only once an idea is picked
    await idea(host, picnic).getByRole('button', { name: 'Pick', exact: true }).click();
    await expect(idea(host, picnic).getByRole('button', { name: 'Picked' })).toBeVisible();
    await expect(status).toContainText(picnic);

    await status.getByRole('button', { name: 'Set Location' }).click();
    const location = status.getByPlaceholder('Enter location or share a link...');
    await location.fill(`${place} ${mapLink}`);
    await status.getByRole('button', { name: 'Save' }).click();
    await expect(location).toBeHidden();
    await expect(status.getByRole('link', { name: mapLink })).toHaveAttribute('href', mapLink);
    await expect(status).toContainText(place);
    await expect(status.getByRole('button', { name: 'Edit' })).toBeVisible();
  });

  await test.step('everyone says when they are free', async () => {
    // Alex on the availability page (step 2 of 3): two days, then submit.
    await alex.goto(`/l/${slug}/availability`);
    await expect(alex.getByRole('heading', { level: 1, name: 'When are you free?' })).toBeVisible();
    await expect(alex.getByRole('heading', { name: 'Next 2 Weeks' })).toBeVisible();
    await dayButton(alex, tomorrow).click();
    await expect(dayButton(alex, tomorrow)).toHaveAccessibleName(`${longDate(tomorrow)}: 1 vote, you're free`);
    await dayButton(alex, dayAfter).click();
    await expect(dayButton(alex, dayAfter)).toHaveAttribute('aria-pressed', 'true');
    await alex.getByRole('button', { name: 'Submit Availability' }).click();
    await expect(alex.getByText('Availability submitted!')).toBeVisible();
    await expect(alex.getByText("You'll be notified when the host makes a decision.")).toBeVisible();
    await expect(alex).toHaveURL(new RegExp(`/l/${slug}`));

    // Blake on the dashboard's Availability tab.
    await blake.getByRole('button', { name: 'Share Availability' }).click();
    await expect(blake.getByRole('tab', { name: /^Availability/, selected: true })).toBeVisible();
    await dayButton(blake, tomorrow).click();
    await expect(dayButton(blake, tomorrow)).toHaveAccessibleName(`${longDate(tomorrow)}: 2 votes, you're free`);
    await expect(blake.getByRole('tab', { name: 'Availability, you voted' })).toBeVisible();

    // Morgan on the plan's availability page.
    await member.goto(`/plan/${planId}/availability`);
    await dayButton(member, tomorrow).click();
    await expect(dayButton(member, tomorrow)).toHaveAccessibleName(`${longDate(tomorrow)}: 3 votes, you're free`);
    await member.getByRole('button', { name: 'Submit Availability' }).click();
    await expect(member.getByText('Availability submitted!')).toBeVisible();
    await expect(member).toHaveURL(new RegExp(`/plan/${planId}$`));
  });

  let timeSetAt = 0;
  await test.step('the host picks the date and sets the time', async () => {
    await host.goto(`/plan/${planId}?tab=availability`);
    const shortTomorrow = new Date(`${tomorrow}T12:00`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric' });
    const row = host.getByRole('listitem').filter({ hasText: shortTomorrow });
    await expect(row.getByRole('img', { name: /^3 votes: / })).toHaveAccessibleName(/Blake/);
    await row.getByRole('button', { name: 'Pick Date' }).click();
    await expect(host.getByText('Date picked!')).toBeVisible();

    const panel = host.getByRole('region', { name: 'Set Event Time' });
    await expect(panel.getByText(longDate(tomorrow))).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Set Time' })).toBeDisabled();
    await panel.getByLabel('Event time').fill('18:30');
    await expect(panel.getByText('Everyone will see 6:30 PM.')).toBeVisible();
    timeSetAt = Date.now() - 1000;
    await panel.getByRole('button', { name: 'Set Time' }).click();

    const final = host.getByRole('region', { name: 'Final Time Set' });
    await expect(final).toContainText(`${longDate(tomorrow)} at 6:30PM`);
    await expect(final).toContainText('All participants have been notified of the final event time.');
    await expect(final.getByRole('button', { name: 'Unlock & Revote' })).toBeVisible();
    await expect(final.getByRole('button', { name: 'Share Details' })).toBeVisible();
    await expect(panel).toBeHidden();
    await expect(host.getByRole('region', { name: 'Plan Status' })).toContainText(`${longDate(tomorrow)} at 6:30 PM`);
  });

  const ymd = tomorrow.replaceAll('-', '');

  await test.step('the member is e-mailed the time with an .ics', async () => {
    const mail = await waitForMail(memberEmail, /^Time set:/, timeSetAt);
    expect(mail.subject).toBe(`Time set: ${picnic} on ${longDate(tomorrow)} at 6:30 PM`);
    const ics = mail.attachments?.find((a) => /\.ics$/.test(a.generatedFileName ?? a.fileName ?? ''));
    expect(ics, 'an .ics attachment').toBeTruthy();
    const lines = icsLines(await mailAttachment(mail, ics!.generatedFileName ?? ics!.fileName!));
    // 6:30 PM in the host's zone is 13:00 UTC.
    expect(lines).toContain(`DTSTART:${ymd}T130000Z`);
    expect(lines).toContain(`DTEND:${ymd}T150000Z`);
    expect(lines).toContain(`SUMMARY:${picnic}`);
    expect(lines).toContain(`UID:plan-${planId}@hangplan`);
    // Guests have no address; the host, who has an account, is told too.
    await waitForMail(hostEmail, /^Time set:/, timeSetAt);
  });

  await test.step("the e-mail's unsubscribe link stops e-mails about this plan, and can undo it (phone size, axe)", async () => {
    const mail = await waitForMail(memberEmail, /^Time set:/, timeSetAt);
    const link = /\/unsubscribe\/[A-Za-z0-9_-]{91}/.exec(mail.text ?? '')?.[0];
    expect(link, 'the footer link').toBeTruthy();
    const inbox = await phonePage(browser);
    await inbox.goto(link!);
    const ask = inbox.getByRole('heading', { name: /^Stop e-mails about / });
    await check(inbox, 'unsubscribe', ask);
    await inbox.getByRole('button', { name: 'Unsubscribe' }).click();
    const done = inbox.getByRole('heading', { name: "You're unsubscribed" });
    await check(inbox, 'unsubscribed', done);
    await inbox.getByRole('button', { name: 'Turn e-mails back on' }).click();
    await expect(inbox.getByRole('heading', { name: /^Stop e-mails about / })).toBeVisible();
    await inbox.context().close();
  });

  await test.step('everyone sees the confirmed plan after a reload', async () => {
    // Alex: the dashboard's Availability tab and the status card.
    await alex.goto(`/l/${slug}/dashboard?tab=availability`);
    const confirmed = alex.getByRole('region', { name: 'Event Time Confirmed!' });
    await expect(confirmed).toContainText(longDate(tomorrow));
    await expect(confirmed).toContainText('6:30PM');
    await expect(confirmed).toContainText('The host has set the final event time. See you there!');
    await expect(confirmed.getByRole('button', { name: 'Add to Calendar' })).toBeVisible();
    const alexStatus = alex.getByRole('region', { name: 'Plan Status' });
    await expect(alexStatus).toContainText(picnic);
    await expect(alexStatus).toContainText(`${longDate(tomorrow)} at 6:30 PM`);
    await expect(alexStatus.getByRole('link', { name: mapLink })).toHaveAttribute('href', mapLink);
    await alex.getByRole('tab', { name: /^Ideas/ }).click();
    await expect(idea(alex, picnic).getByText("Host's Pick")).toBeVisible();

    // Blake: the availability page.
    await blake.goto(`/l/${slug}/availability`);
    await expect(blake.getByRole('heading', { name: 'Event Confirmed' })).toBeVisible();
    await expect(blake.getByRole('heading', { name: 'Time Set!' })).toBeVisible();
    await expect(blake.getByText(`See you on ${longDate(tomorrow)} at 6:30PM!`)).toBeVisible();
    await expect(blake.getByText('Final time confirmed by host')).toBeVisible();
    await blake.getByRole('link', { name: 'Back to Plan' }).click();
    await expect(blake).toHaveURL(new RegExp(`/l/${slug}/ideas$`));

    // Morgan: the plan page's status card and Availability tab.
    await member.goto(`/plan/${planId}?tab=availability`);
    await expect(member.getByRole('region', { name: 'Plan Status' })).toContainText(`${longDate(tomorrow)} at 6:30 PM`);
    await expect(member.getByRole('region', { name: 'Event Time Confirmed!' })).toContainText('6:30PM');
  });

  await test.step("'Add to Calendar' downloads the event as .ics", async () => {
    await member.getByRole('button', { name: 'Add to Calendar' }).first().click();
    await expect(member.getByRole('menuitem', { name: 'Google Calendar' })).toHaveAttribute(
      'href',
      new RegExp(`dates=${ymd}T130000Z%2F${ymd}T150000Z`),
    );
    const [download] = await Promise.all([
      member.waitForEvent('download'),
      member.getByRole('menuitem', { name: 'Download .ics' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const lines = icsLines((await readFile(await download.path())).toString('utf8'));
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain(`DTSTART:${ymd}T130000Z`);
    expect(lines).toContain(`SUMMARY:${picnic}`);
    expect(lines.find((l) => l.startsWith('LOCATION:'))).toContain('Dolores Park');
    await member.keyboard.press('Escape');
  });

  await test.step('Blake creates an account from the dashboard banner and keeps the votes', async () => {
    await blake.goto(`/l/${slug}/dashboard`);
    const banner = blake.getByRole('complementary', { name: 'Save Your Votes & Get Updates' });
    await banner.getByRole('link', { name: 'Create Account' }).click();
    await expect(blake).toHaveURL(/\/auth\?returnTo=/);
    const sentAfter = Date.now() - 1000;
    await blake.getByLabel(/email/i).fill(blakeEmail);
    await blake.getByRole('button', { name: 'Send Verification Code' }).click();
    await enterCode(blake, await latestCode(blakeEmail, sentAfter));
    // One idea vote and one date vote.
    await expect(blake.getByText('Welcome! Your 2 previous votes have been saved to your account.')).toBeVisible();
    await expect(blake).toHaveURL(dashboard());
    await expect(blake.getByRole('complementary', { name: 'Get Plan Notifications' })).toBeVisible();
    await blake.goto('/home');
    const card = blake.getByRole('link', { name: new RegExp(title) });
    await expect(card).toContainText(picnic);
    await expect(card).toContainText('6:30 PM');
    await blake.goto(`/plan/${planId}`);
    await expect(voteButton(blake, picnic, '3 votes')).toHaveAttribute('aria-pressed', 'true');
  });

  await test.step('the member leaves the plan', async () => {
    await member.goto(`/plan/${planId}`);
    await member.getByRole('button', { name: 'Leave Plan' }).click();
    const dialog = member.getByRole('dialog', { name: 'Leave this plan?' });
    await expect(dialog).toContainText("If you're the last participant, the plan will be deleted.");
    await dialog.getByRole('button', { name: 'Leave Plan' }).click();
    await expect(member).toHaveURL(/\/home$/);
    await expect(member.getByText('You left the plan')).toBeVisible();
    await expect(member.getByText("You've been removed from the participant list")).toBeVisible();
    await expect(member.getByText('Ready to make plans?')).toBeVisible();

    // The host sees one person fewer, and Morgan's vote gone with them.
    await host.goto(`/plan/${planId}`);
    await expect(host.getByRole('region', { name: 'Plan Status' }).getByText('3 people joined')).toBeVisible();
    await expect(voteButton(host, picnic, '2 votes')).toBeVisible();
  });

  await test.step('the host deletes the plan and it is gone for everyone', async () => {
    await host.getByRole('button', { name: 'Delete Plan' }).click();
    const dialog = host.getByRole('dialog');
    await expect(dialog).toContainText('Deleting this plan is permanent. Are you sure?');
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await expect(host).toHaveURL(/\/home$/);
    await expect(host.getByText('Ready to make plans?')).toBeVisible();

    for (const page of [alex, member]) {
      await page.goto(link);
      await expect(page.getByRole('heading', { name: 'Plan not found' })).toBeVisible();
      await expect(page.getByText('This plan may have been deleted or the link is invalid.')).toBeVisible();
    }
    // Alex's stored guest session outlives the plan: the dashboard says it is gone too.
    await alex.goto(`/l/${slug}/dashboard`);
    await expect(alex.getByRole('heading', { name: 'Plan not found' })).toBeVisible();
    await blake.goto('/home');
    await expect(blake.getByText('Ready to make plans?')).toBeVisible();
    expect((await fetch(api(`/api/plans/${planId}`))).status).toBe(404);
  });
});
