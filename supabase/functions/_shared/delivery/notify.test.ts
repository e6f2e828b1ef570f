import { describe, expect, it } from 'vitest';
import { type EventTimeDetails, eventTimeSetMail, icsAttachment } from './event-mail.ts';
import { type Delivery, noticeLine, noticeMail, planUrl, pushPayload } from './notify.ts';

const ORIGIN = 'https://hangplan.example';
const details = (extra: Partial<EventTimeDetails> = {}): EventTimeDetails => ({
  planId: '0b6f2a4e-8c1d-4e5f-9a7b-3c2d1e0f9a8b',
  planTitle: 'Friday hangout',
  ideaText: 'Bowling',
  location: "Joe's Lanes",
  date: '2026-03-14',
  eventTime: '7:00 PM',
  period: '19:00',
  ...extra,
});

describe('eventTimeSetMail', () => {
  it('says what, when (long en-US date + time), where, and links the plan', () => {
    const mail = eventTimeSetMail(details(), { email: 'mia@example.com', name: 'Mia Lee' }, ORIGIN);
    expect(mail.subject).toBe('Time set: Bowling on Saturday, March 14, 2026 at 7:00 PM');
    expect(mail.text).toContain('Hi Mia Lee,');
    expect(mail.text).toContain('What: Bowling');
    expect(mail.text).toContain('When: Saturday, March 14, 2026 at 7:00 PM');
    expect(mail.text).toContain("Where: Joe's Lanes");
    expect(mail.text).toContain(`${ORIGIN}/plan/${details().planId}`);
    expect(mail.html).toContain(`href="${ORIGIN}/plan/${details().planId}"`);
  });

  it('falls back to the plan title, leaves out an empty where', () => {
    const mail = eventTimeSetMail(details({ ideaText: null, location: null }), { email: 'a@b.c', name: null }, ORIGIN);
    expect(mail.subject).toBe('Time set: Friday hangout on Saturday, March 14, 2026 at 7:00 PM');
    expect(mail.text).toContain('What: Friday hangout');
    expect(mail.text).not.toContain('Where:');
    expect(mail.text.startsWith('Hi,')).toBe(true);
  });

  it('escapes user text in the HTML and keeps the subject on one line', () => {
    const mail = eventTimeSetMail(
      details({ ideaText: '<b>Bowl</b>\r\nBcc: x@y.z', planTitle: 'A & B' }),
      { email: 'a@b.c', name: '<Mia>' },
      ORIGIN,
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain('<b>Bowl</b>');
    expect(mail.html).toContain('&lt;b&gt;Bowl&lt;/b&gt;');
    expect(mail.html).toContain('A &amp; B');
    expect(mail.html).toContain('Hi &lt;Mia&gt;,');
  });

  it('strips CR, other control characters and invisible ones from every text, the attachment too', async () => {
    const hostile = details({
      planTitle: 'Trip\r\nBcc: evil@example.com',
      ideaText: 'Bowl\u0000ing\u202E',
      location: 'Lanes\rX-Evil: 1\u001B',
      eventTime: '7:00 PM\r',
    });
    const mail = eventTimeSetMail(hostile, { email: 'a@b.c', name: 'Mia\r\u200BLee' }, ORIGIN);
    for (const text of [mail.subject, mail.text, mail.html ?? '']) {
      // eslint-disable-next-line no-control-regex -- looking for control characters
      expect(text).not.toMatch(/[\r\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200B\u202E]/);
    }
    expect(mail.subject).toBe('Time set: Bowling on Saturday, March 14, 2026 at 7:00 PM');
    expect(mail.text).toContain('Hi Mia Lee,');
    expect(mail.text).toContain('Where: Lanes X-Evil: 1');
    expect(mail.text).toContain('The time is set for Trip Bcc: evil@example.com.');

    const ics = icsAttachment(hostile, ORIGIN, 0)?.content ?? '';
    expect(ics).toContain('SUMMARY:Bowling');
    // eslint-disable-next-line no-control-regex -- looking for control characters
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
  });

  it('planUrl ignores a trailing slash of the origin', () => {
    expect(planUrl('https://x.example/', 'id')).toBe('https://x.example/plan/id');
  });
});

const delivery = (extra: Partial<Delivery> = {}): Delivery => ({
  id: 1,
  eventId: 7,
  channel: 'push',
  endpoint: 'https://fcm.googleapis.com/fcm/send/x',
  p256dh: 'k',
  auth: 'a',
  email: null,
  name: 'Gus',
  userId: null,
  guestId: 'b1c9e9a0-8c1d-4e5f-9a7b-3c2d1e0f9a8b',
  planId: details().planId,
  planTitle: 'Friday hangout',
  planSlug: 'abcDEF123456',
  kind: 'idea_picked',
  detail: { ideaText: 'Bowling', date: '2026-03-14', eventTime: '7:00 PM', period: '19:00', location: "Joe's Lanes" },
  attempts: 1,
  ...extra,
});

describe('noticeLine: one line per kind', () => {
  const d = delivery().detail;
  it.each([
    ['idea_picked', d, 'The host picked Bowling'],
    ['date_locked', { date: '2026-03-14' }, 'The date is locked: Saturday, March 14, 2026. The time comes next.'],
    ['decided', { ideaText: 'Bowling', date: '2026-03-14' }, 'Decided: Bowling on Saturday, March 14, 2026'],
    ['decided', { ideaText: null, date: '2026-03-14' }, 'Decided: Saturday, March 14, 2026'],
    ['time_set', d, "It's on: Bowling, Saturday, March 14, 2026 at 7:00 PM"],
    ['time_changed', { ...d, eventTime: '8:00 PM' }, 'New time: Saturday, March 14, 2026 at 8:00 PM'],
    ['place_changed', d, "New place: Joe's Lanes"],
    ['place_changed', { location: null }, 'The place was removed'],
    ['unlocked', {}, 'Voting is open again: vote for a new date'],
    ['plan_deleted', {}, 'The host deleted Friday hangout'],
    ['digest', { ideas: 3, comments: 0 }, '3 new ideas in Friday hangout'],
    ['digest', { ideas: 1, comments: 2 }, '1 new idea and 2 new comments in Friday hangout'],
    ['reminder', {}, 'Your friends are waiting for your votes on ideas and dates'],
    ['deadline_soon', {}, 'Less than a day left to vote: add yours before the deadline'],
    ['deadline_reached', { ideaText: 'Bowling', ideaVotes: 4, date: '2026-03-14', dateVotes: 1, autoLock: false },
      'Voting has closed. Leading: Bowling (4 votes) and Saturday, March 14, 2026 (1 vote). Time to decide.'],
    ['deadline_reached', { ideaText: null, date: '2026-03-14', dateVotes: 2, dateIfNeedBe: 1, autoLock: false },
      'Voting has closed. Leading: Saturday, March 14, 2026 (2 yes, 1 if need be). Time to decide.'],
    ['deadline_reached', { ideaText: null, date: '2026-03-14', dateVotes: 0, dateIfNeedBe: 2, autoLock: false },
      'Voting has closed. Leading: Saturday, March 14, 2026 (0 yes, 2 if need be). Time to decide.'],
    ['deadline_reached', { ideaText: 'Bowling', ideaVotes: 1, date: null, autoLock: true },
      'Voting has closed. Leading: Bowling (1 vote). No date has votes, so nothing was locked.'],
    ['deadline_reached', { ideaText: null, date: null, autoLock: false }, 'Voting has closed, with no votes yet'],
    ['spot_opened', {}, "A spot opened: you're going to Friday hangout"],
    ['date_locked', { date: '2026-03-14', askAgain: true }, 'The date is locked: Saturday, March 14, 2026. The time comes next. New date: are you still coming?'],
    ['time_changed', { ...d, eventTime: '8:00 PM', askAgain: true, placeChanged: true },
      "New time: Saturday, March 14, 2026 at 8:00 PM. New place: Joe's Lanes. New date: are you still coming?"],
    ['unlocked', { askAgain: true }, 'Voting is open again: vote for a new date'],
    ['plan_cancelled', { cancelMessage: 'Rain all\nweekend' }, 'The host cancelled the plan: Rain all weekend'],
    ['plan_cancelled', { cancelMessage: null }, 'The host cancelled the plan'],
    ['event_reminder', { reminder: 'day', eventTime: '7:30 PM', location: 'Kenji', answer: 'going' }, "Tomorrow 7:30 PM at Kenji: you're going"],
    ['event_reminder', { reminder: 'day', today: true, eventTime: '7:30 PM', location: null, answer: 'maybe' }, 'Today 7:30 PM: you said maybe'],
    ['event_reminder', { reminder: 'soon', hours: 2, eventTime: '7:30 PM', location: 'Kenji', answer: 'going' }, "In 2 hours at Kenji: you're going"],
    ['event_reminder', { reminder: 'soon', hours: 1, eventTime: '7:30 PM', answer: 'going' }, "In 1 hour: you're going"],
    ['rsvp_reminder', {}, "Are you coming? Answer Going, Maybe or Can't go"],
  ] as const)('%s', (kind, detail, line) => {
    expect(noticeLine(kind, detail, 'Friday hangout')).toBe(line);
  });

  it('keeps user text on one line, whatever the database holds', () => {
    expect(noticeLine('idea_picked', { ideaText: 'Bowl\r\ning\u202e' }, 'x')).toBe('The host picked Bowl ing');
  });

  it('a notice that covers several changes adds the new place to what its kind says (what is true now)', () => {
    expect(noticeLine('time_changed', { ...d, eventTime: '9:00 PM', location: 'The Lanes', placeChanged: true }, 'x'))
      .toBe('New time: Saturday, March 14, 2026 at 9:00 PM. New place: The Lanes');
    expect(noticeLine('date_locked', { date: '2026-03-14', location: null, placeChanged: true }, 'x'))
      .toBe('The date is locked: Saturday, March 14, 2026. The time comes next. The place was removed');
    expect(noticeLine('place_changed', { location: 'Park', placeChanged: true }, 'x')).toBe('New place: Park');
    expect(noticeLine('unlocked', { location: 'Park', placeChanged: false }, 'x')).toBe('Voting is open again: vote for a new date');
  });
});

describe('pushPayload', () => {
  it("names the plan, says what happened, opens the guest's link or the member's page, one tag per event", () => {
    expect(pushPayload(delivery())).toEqual({
      title: 'Friday hangout',
      body: 'The host picked Bowling',
      url: '/l/abcDEF123456',
      tag: 'hangplan-7',
    });
    expect(pushPayload(delivery({ userId: 'u1', guestId: null })).url).toBe(`/plan/${details().planId}`);
    expect(pushPayload(delivery({ kind: 'plan_deleted' })).url).toBe('/');
  });
});

describe('noticeMail', () => {
  const links = { page: `${ORIGIN}/unsubscribe/tok`, oneClick: `${ORIGIN}/api/unsubscribe/tok` };
  const member = (extra: Partial<Delivery> = {}) =>
    delivery({ channel: 'email', email: 'mia@example.com', name: 'Mia', userId: 'u1', guestId: null, ...extra });

  it('every e-mail has RFC 8058 one-click headers and the link in its footer', () => {
    for (const kind of ['unlocked', 'time_set', 'reminder'] as const) {
      const mail = noticeMail(member({ kind }), ORIGIN, links);
      expect(mail.headers).toEqual({
        'List-Unsubscribe': `<${ORIGIN}/api/unsubscribe/tok>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      });
      expect(mail.text).toContain(`Stop e-mails about this plan: ${ORIGIN}/unsubscribe/tok`);
      expect(mail.html).toContain(`href="${ORIGIN}/unsubscribe/tok"`);
    }
  });

  it('the time keeps its full form with the .ics', () => {
    const mail = noticeMail(member({ kind: 'time_set' }), ORIGIN, links);
    expect(mail.subject).toBe('Time set: Bowling on Saturday, March 14, 2026 at 7:00 PM');
    expect(mail.text).toContain("Where: Joe's Lanes");
    expect(mail.attachments?.[0].content).toContain('DTSTART:20260314T190000\r\n');
  });

  it('the .ics carries the plan\'s one UID and the calendar sequence of the moment the time was set', () => {
    const mail = noticeMail(member({ kind: 'time_changed', detail: { ...member().detail, calendarSequence: 5 } }), ORIGIN, links);
    const ics = mail.attachments?.[0].content ?? '';
    expect(ics).toContain(`UID:plan-${details().planId}@hangplan\r\n`);
    expect(ics).toContain('SEQUENCE:5\r\n');
    // An outbox row written before the sequence existed: no SEQUENCE, still the UID.
    expect(noticeMail(member({ kind: 'time_set' }), ORIGIN, links).attachments?.[0].content).not.toContain('SEQUENCE');
  });

  it('a cancelled plan with a date: the invite\'s event as METHOD:CANCEL, STATUS:CANCELLED, the same UID, the new SEQUENCE', () => {
    const mail = noticeMail(member({ kind: 'plan_cancelled', detail: { ...member().detail, cancelMessage: 'Rain', calendarSequence: 6 } }), ORIGIN, links);
    expect(mail.subject).toBe('Friday hangout: The host cancelled the plan: Rain');
    const [ics] = mail.attachments ?? [];
    expect(ics.contentType).toBe('text/calendar; charset=utf-8; method=CANCEL');
    for (const line of ['METHOD:CANCEL', 'STATUS:CANCELLED', `UID:plan-${details().planId}@hangplan`, 'SEQUENCE:6']) {
      expect(ics.content).toContain(`${line}\r\n`);
    }
    // Without a date there was no invite to cancel.
    expect(noticeMail(member({ kind: 'plan_cancelled', detail: {} }), ORIGIN, links).attachments).toBeUndefined();
  });

  it('other kinds: the plan, the line, the link to the plan (home when it is gone)', () => {
    const mail = noticeMail(member({ kind: 'unlocked' }), ORIGIN, links);
    expect(mail.subject).toBe('Friday hangout: Voting is open again: vote for a new date');
    expect(mail.text).toContain(`Hi Mia,`);
    expect(mail.text).toContain(`See the plan: ${ORIGIN}/plan/${details().planId}`);
    expect(mail.attachments).toBeUndefined();
    const gone = noticeMail(member({ kind: 'plan_deleted', planTitle: '<b>Party</b>' }), ORIGIN, links);
    expect(gone.text).toContain(`Open Hangplan: ${ORIGIN}/`);
    expect(gone.html).toContain('&lt;b&gt;Party&lt;/b&gt;');
    expect(gone.html).not.toContain('<b>Party');
  });
});
