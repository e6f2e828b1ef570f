import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MailMessage } from './mail.ts';
import { type EventTimeDetails, eventTimeSetMail, icsAttachment, notifyEventTimeSet, planUrl } from './notify.ts';

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

describe('notifyEventTimeSet', () => {
  const previous = process.env.APP_ORIGIN;
  beforeEach(() => {
    process.env.APP_ORIGIN = ORIGIN;
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    if (previous === undefined) delete process.env.APP_ORIGIN;
    else process.env.APP_ORIGIN = previous;
    vi.restoreAllMocks();
  });

  it('sends one message per recipient, each with the .ics attached', async () => {
    const sent: MailMessage[] = [];
    const result = await notifyEventTimeSet(
      details(),
      [
        { email: 'a@example.com', name: 'A' },
        { email: 'b@example.com', name: 'B' },
      ],
      async (m) => {
        sent.push(m);
      },
    );
    expect(result).toEqual({ sent: 2, failed: 0 });
    expect(sent.map((m) => m.to)).toEqual(['a@example.com', 'b@example.com']);
    for (const m of sent) {
      expect(m.attachments).toHaveLength(1);
      expect(m.attachments![0].filename).toBe('bowling.ics');
      expect(m.attachments![0].contentType).toMatch(/^text\/calendar/);
      expect(m.attachments![0].content).toContain('DTSTART:20260314T190000\r\n');
    }
  });

  it('never throws: failures are counted and logged', async () => {
    const result = await notifyEventTimeSet(
      details(),
      [
        { email: 'ok@example.com', name: null },
        { email: 'bad@example.com', name: null },
      ],
      async (m) => {
        if (m.to === 'bad@example.com') throw new Error('SMTP down');
      },
    );
    expect(result).toEqual({ sent: 1, failed: 1 });
    expect(console.error).toHaveBeenCalled();
  });

  it('sends nothing to nobody', async () => {
    const send = vi.fn();
    expect(await notifyEventTimeSet(details(), [], send)).toEqual({ sent: 0, failed: 0 });
    expect(send).not.toHaveBeenCalled();
  });
});
