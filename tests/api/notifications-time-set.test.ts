// The "time is set" e-mail of POST /api/plans/{id}/set-event-time, read back
// from maildev: every participant with an account gets one (guests have no
// address), saying what / when / where with the plan's link and an .ics whose
// DTSTART is the floating local date and time; and when it cannot be sent,
// the host's decision stands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { CaughtMail } from '../support/mail.ts';
import { api, apiDatabaseAsOwner, startApiWithDeadSmtp, testMailbox } from '../support/api.ts';
import { apiWorld, type PlanJson, type User } from '../support/api-world.ts';
import { compact, day } from '../support/dates.ts';

const owner = apiDatabaseAsOwner();
const world = apiWorld(owner);
const mail = testMailbox();
afterAll(async () => {
  await world.cleanUp();
  await owner.end();
});

const APP_ORIGIN = 'http://localhost:5173'; // tests/setup/api.ts

async function lockAndSetTime(host: User, planId: string, date: string, time: string): Promise<PlanJson> {
  const locked = await api('POST', `/api/plans/${planId}/lock-date`, { body: { date }, token: host.token });
  expect(locked.status).toBe(200);
  const res = await api<PlanJson>('POST', `/api/plans/${planId}/set-event-time`, { body: { time }, token: host.token });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** The attachment's text, from maildev's API. */
async function attachmentText(caught: CaughtMail): Promise<{ name: string; contentType: string | undefined; text: string }> {
  const attachment = caught.attachments?.[0];
  if (!attachment) throw new Error(`no attachment on "${caught.subject}"`);
  const name = attachment.generatedFileName ?? attachment.fileName ?? '';
  const res = await fetch(`${inject('mailUrl')}/email/${caught.id}/attachment/${encodeURIComponent(name)}`);
  expect(res.status).toBe(200);
  return { name: attachment.fileName ?? name, contentType: attachment.contentType, text: await res.text() };
}

/** The VEVENT's properties (unfolded, text unescaped). */
function icsProps(ics: string): Record<string, string> {
  const lines = ics.replace(/\r\n[ \t]/g, '').split(/\r\n/);
  const props: Record<string, string> = {};
  for (const line of lines.slice(lines.indexOf('BEGIN:VEVENT') + 1, lines.indexOf('END:VEVENT'))) {
    const colon = line.indexOf(':');
    props[line.slice(0, colon)] = line.slice(colon + 1).replace(/\\([\\;,nN])/g, (_, ch: string) => (ch.toLowerCase() === 'n' ? '\n' : ch));
  }
  return props;
}

describe('set-event-time e-mails the participants who have an account', () => {
  it('sends what / when / where with the link and an .ics (floating DTSTART) to each member, not guests', async () => {
    const host = await world.newUser('Hana', 'Host');
    const plan = await world.newPlan(host, 'Friday hangout');
    const member = await world.newMember(plan.id, 'Mia');
    await world.newGuest(plan.id);
    const outsider = await world.newUser('Otto');
    const [{ id: ideaId }] = await owner<{ id: string }[]>`
      insert into app.ideas (plan_id, text, author_name, user_id) values (${plan.id}, 'Bowling, then pizza', '-', ${host.id}) returning id`;
    await owner`update app.plans set locked_idea_id = ${ideaId} where id = ${plan.id}`;
    await api('POST', `/api/plans/${plan.id}/location`, { body: { location: "Joe's Lanes, 12 Main St" }, token: host.token });

    const date = await day(owner, 10);
    const [y, m, d] = date.split('-').map(Number);
    const longDate = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const result = await lockAndSetTime(host, plan.id, date, '19:30');
    expect(result).toMatchObject({ status: 'completed', eventTime: '7:30 PM' });

    for (const user of [host, member]) {
      const caught = await mail.latestMailTo(user.email);
      expect(await mail.mailsTo(user.email)).toHaveLength(1);
      expect(caught.subject).toBe(`Time set: Bowling, then pizza on ${longDate} at 7:30 PM`);
      expect(caught.text).toContain('What: Bowling, then pizza');
      expect(caught.text).toContain(`When: ${longDate} at 7:30 PM`);
      expect(caught.text).toContain("Where: Joe's Lanes, 12 Main St");
      expect(caught.text).toContain(`${APP_ORIGIN}/plan/${plan.id}`);
      expect(caught.html).toContain(`href="${APP_ORIGIN}/plan/${plan.id}"`);
      // One recipient per message: nobody sees the others' addresses.
      expect(caught.to.map((t) => t.address)).toEqual([user.email]);

      const ics = await attachmentText(caught);
      expect(ics.name).toBe('bowling-then-pizza.ics');
      expect(ics.contentType).toMatch(/^text\/calendar/);
      const props = icsProps(ics.text);
      expect(props.DTSTART).toBe(`${compact(date)}T193000`);
      expect(props.DTEND).toBe(`${compact(date)}T213000`);
      expect(props.SUMMARY).toBe('Bowling, then pizza');
      expect(props.LOCATION).toBe("Joe's Lanes, 12 Main St");
      expect(props.DESCRIPTION).toContain('Friday hangout');
      expect(props.DESCRIPTION).toContain(`${APP_ORIGIN}/plan/${plan.id}`);
      expect(props.UID).toBe(`plan-${plan.id}@hangplan`);
    }
    expect(await mail.mailsTo(outsider.email)).toHaveLength(0);
  });

  it('without a picked idea or a location: the plan title, no "Where"', async () => {
    const host = await world.newUser('Hal');
    const plan = await world.newPlan(host, 'Board game night');
    const date = await day(owner, 1);
    await lockAndSetTime(host, plan.id, date, '23:30');
    const caught = await mail.latestMailTo(host.email);
    expect(caught.subject).toMatch(/^Time set: Board game night on .+ at 11:30 PM$/);
    expect(caught.text).toContain('What: Board game night');
    expect(caught.text).not.toContain('Where:');
    const props = icsProps((await attachmentText(caught)).text);
    expect(props.SUMMARY).toBe('Board game night');
    expect(props.LOCATION).toBeUndefined();
    expect(props.DTSTART).toBe(`${compact(date)}T233000`);
    // Two hours later is past midnight: the next day.
    expect(props.DTEND).toBe(`${compact(await day(owner, 2))}T013000`);
  });

  it("writes the time as the instant it is in the host's zone, which every calendar shows right", async () => {
    const host = await world.newUser('Isha');
    const plan = await world.newPlan(host, 'Chai');
    const date = await day(owner, 6);
    expect((await api('POST', `/api/plans/${plan.id}/lock-date`, { body: { date }, token: host.token })).status).toBe(200);
    // India is UTC+5:30 all year: 7:30 PM there is 14:00 UTC.
    const res = await api<PlanJson>('POST', `/api/plans/${plan.id}/set-event-time`, { body: { time: '19:30', timeZone: 'Asia/Kolkata' }, token: host.token });
    expect(res.status, res.text).toBe(200);
    const caught = await mail.latestMailTo(host.email);
    // The e-mail says the host's wall clock; the file carries the instant.
    expect(caught.subject).toMatch(/ at 7:30 PM$/);
    const props = icsProps((await attachmentText(caught)).text);
    expect(props.DTSTART).toBe(`${compact(date)}T140000Z`);
    expect(props.DTEND).toBe(`${compact(date)}T160000Z`);
  });

  it('a member who joined by voting is told too; a new time is sent again once the window allows', async () => {
    const host = await world.newUser('Hope');
    const plan = await world.newPlan(host);
    const voter = await world.newUser('Vic');
    const date = await day(owner, 4);
    await api('POST', `/api/plans/${plan.id}/vote-date`, { body: { date }, token: voter.token });
    await lockAndSetTime(host, plan.id, date, '18:00');
    expect((await mail.latestMailTo(voter.email)).subject).toMatch(/at 6:00 PM$/);
    // (At most one notice per plan per 10 minutes: tests/api/notifications.test.ts. Pretend they passed.)
    await owner`update app.plan_notices set quiet_until = now() - interval '1 second' where plan_id = ${plan.id}`;
    await api('POST', `/api/plans/${plan.id}/set-event-time`, { body: { time: '20:00' }, token: host.token });
    expect((await mail.latestMailTo(voter.email, { count: 2 })).subject).toMatch(/at 8:00 PM$/);
  });

  it('failed host actions send nothing', async () => {
    const host = await world.newUser('Hugo');
    const plan = await world.newPlan(host);
    const member = await world.newMember(plan.id);
    // No locked date: 409, no e-mail.
    expect((await api('POST', `/api/plans/${plan.id}/set-event-time`, { body: { time: '19:00' }, token: host.token })).status).toBe(409);
    // Not the host: 403, no e-mail.
    await api('POST', `/api/plans/${plan.id}/lock-date`, { body: { date: await day(owner, 3) }, token: host.token });
    expect((await api('POST', `/api/plans/${plan.id}/set-event-time`, { body: { time: '19:00' }, token: member.token })).status).toBe(403);
    await new Promise((r) => setTimeout(r, 300));
    expect(await mail.mailsTo(host.email)).toHaveLength(0);
    expect(await mail.mailsTo(member.email)).toHaveLength(0);
  });
});

describe('set-event-time when SMTP is down', () => {
  // A second function instance whose SMTP port has nobody listening (like
  // auth-mail-failure.test.ts): the host's decision stands, set-event-time
  // commits first, then sends; a failed send is logged and the answer is
  // still 200 with the completed plan.
  let brokenApi: Awaited<ReturnType<typeof startApiWithDeadSmtp>>;
  let brokenUrl: string;

  beforeAll(async () => {
    brokenApi = await startApiWithDeadSmtp();
    brokenUrl = brokenApi.url;
  });

  afterAll(async () => {
    await brokenApi?.stop();
  });

  it('answers 200 with the completed plan, and the lock is kept', async () => {
    const host = await world.newUser('Hana');
    const plan = await world.newPlan(host);
    await world.newMember(plan.id);
    const date = await day(owner, 5);
    const baseUrl = brokenUrl;
    expect((await api('POST', `/api/plans/${plan.id}/lock-date`, { body: { date }, token: host.token, baseUrl })).status).toBe(200);

    const res = await api<PlanJson>('POST', `/api/plans/${plan.id}/set-event-time`, { body: { time: '19:00' }, token: host.token, baseUrl });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ status: 'completed', eventTime: '7:00 PM', lockedTimeSlotDate: date });

    const [row] = await owner`
      select p.status, p.event_time, s.period
        from app.plans p join app.time_slots s on s.id = p.locked_time_slot_id
       where p.id = ${plan.id}`;
    expect(row).toEqual({ status: 'completed', event_time: '7:00 PM', period: '19:00' });
  });
});
