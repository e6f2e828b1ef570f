import { describe, expect, it } from 'vitest';
import { planJson } from '../plans/test-fixtures';
import type { Plan } from '../../../../supabase/functions/_shared/contract/plans';
import { canAddToCalendar, googleCalendarUrl, icsFileName, planCalendarEvent, planIcs } from './plan-event';

const ORIGIN = 'https://hangplan.example';

/** A plan whose idea is picked and whose slot is locked on 2026-03-14 with `period`. */
const locked = (period: string | null, extra: Partial<Plan> = {}): Plan =>
  planJson({
    status: 'completed',
    lockedIdeaId: 'i1',
    lockedIdeaText: 'Bowling',
    lockedTimeSlotId: 's1',
    lockedTimeSlotDate: '2026-03-14',
    lockedTimeSlot: { id: 's1', date: '2026-03-14', period },
    ...extra,
  });

const hours = (plan: Plan) => {
  const event = planCalendarEvent(plan, ORIGIN)!;
  const hm = ({ time }: { time: { hour: number; minute: number } }) => `${time.hour}:${String(time.minute).padStart(2, '0')}`;
  return `${hm(event.start)}-${hm(event.end)}`;
};

/** Unfolded .ics lines (RFC 5545 §3.1). */
const icsLines = (ics: string) => ics.replace(/\r\n[ \t]/g, '').split('\r\n');

describe('the calendar event of a plan (spec §3, §9)', () => {
  it('exists only once an idea and a slot are both locked', () => {
    expect(canAddToCalendar(planJson())).toBe(false);
    expect(canAddToCalendar(planJson({ lockedIdeaId: 'i1' }))).toBe(false);
    expect(canAddToCalendar(planJson({ lockedIdeaId: 'i1', lockedTimeSlotDate: '2026-03-14' }))).toBe(false);
    expect(canAddToCalendar(locked('19:30'))).toBe(true);
    expect(planCalendarEvent(planJson(), ORIGIN)).toBeNull();
  });

  it.each([
    ['Morning', '9:00-12:00'],
    ['Afternoon', '13:00-17:00'],
    ['Evening', '18:00-22:00'],
    ['Night', '19:00-23:00'],
    [null, '9:00-12:00'],
    ['19:30', '19:30-21:30'],
    ['7:05', '7:05-9:05'],
  ])('period %s gives %s', (period, expected) => {
    expect(hours(locked(period))).toBe(expected);
  });

  it('uses the event time (2 hours) over the period; unreadable text starts at 19:00', () => {
    expect(hours(locked('Morning', { eventTime: '7:30 PM' }))).toBe('19:30-21:30');
    expect(hours(locked(null, { eventTime: 'sometime' }))).toBe('19:00-21:00');
  });

  it('passes midnight into the next day', () => {
    const event = planCalendarEvent(locked('23:00'), ORIGIN)!;
    expect(event.end.date).toEqual({ year: 2026, month: 3, day: 15 });
    expect(event.end.time).toEqual({ hour: 1, minute: 0 });
  });

  it('is titled by the picked idea, else the plan; describes and links the plan; located at the plan', () => {
    const event = planCalendarEvent(locked('19:30', { location: "Joe's Lanes" }), ORIGIN)!;
    expect(event.title).toBe('Bowling');
    expect(event.description).toContain('Friday night');
    expect(event.description).toContain(`${ORIGIN}/l/abcDEF12`);
    expect(event.location).toBe("Joe's Lanes");
    expect(planCalendarEvent(locked('19:30', { lockedIdeaText: null }), ORIGIN)!.title).toBe('Friday night');
    expect(planCalendarEvent(locked('19:30'), ORIGIN)!.location).toBeNull();
  });

  it("links the plan's own page for a member not shown the link (closed invitations)", () => {
    const event = planCalendarEvent(locked('19:30', { slug: null }), ORIGIN)!;
    expect(event.description).toContain(`${ORIGIN}/plan/p1`);
    expect(event.description).not.toContain('/l/');
  });

  it('builds a floating-time .ics with the same UID as the e-mailed invite', () => {
    const plan = locked('19:30', { eventTime: '7:30 PM', location: 'Lanes, 5th Ave' });
    const lines = icsLines(planIcs(plan, planCalendarEvent(plan, ORIGIN)!));
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('BEGIN:VEVENT');
    expect(lines).toContain('DTSTART:20260314T193000');
    expect(lines).toContain('DTEND:20260314T213000');
    expect(lines).toContain('SUMMARY:Bowling');
    expect(lines).toContain('LOCATION:Lanes\\, 5th Ave');
    expect(lines).toContain('UID:plan-p1@hangplan');
    expect(lines.find((line) => line.startsWith('DESCRIPTION:'))).toContain(`${ORIGIN}/l/abcDEF12`);
    // Floating: no UTC 'Z' and no time zone on the times.
    expect(lines.filter((line) => /^DT(START|END)/.test(line)).every((line) => !line.endsWith('Z') && !line.includes('TZID'))).toBe(true);
  });

  it("with the host's time zone, the download carries the instant: the same as the e-mail and the feed", () => {
    // Set in Berlin (UTC+1 in March): 7:30 PM there is 18:30 UTC, whatever the zone of the phone that downloads it.
    const plan = locked('19:30', { eventTime: '7:30 PM', timeZone: 'Europe/Berlin' });
    const event = planCalendarEvent(plan, ORIGIN)!;
    const lines = icsLines(planIcs(plan, event));
    expect(lines).toContain('DTSTART:20260314T183000Z');
    expect(lines).toContain('DTEND:20260314T203000Z');
    expect(new URL(googleCalendarUrl(event)).searchParams.get('dates')).toBe('20260314T183000Z/20260314T203000Z');
  });

  it('carries the plan\'s calendar sequence, so the feed or a later e-mail updates the downloaded event', () => {
    const plan = locked('19:30', { eventTime: '7:30 PM', calendarSequence: 7 });
    const lines = icsLines(planIcs(plan, planCalendarEvent(plan, ORIGIN)!));
    expect(lines).toContain('UID:plan-p1@hangplan');
    expect(lines).toContain('SEQUENCE:7');
  });

  it('a cancelled plan downloads as the same event, STATUS:CANCELLED (docs/decisions/0101-calendars-follow-the-answer.md)', () => {
    const on = locked('19:30', { eventTime: '7:30 PM', calendarSequence: 7 });
    expect(icsLines(planIcs(on, planCalendarEvent(on, ORIGIN)!))).toContain('STATUS:CONFIRMED');
    const off = locked('19:30', { eventTime: '7:30 PM', calendarSequence: 8, status: 'cancelled', cancelledAt: '2026-03-10T12:00:00.000Z' });
    const lines = icsLines(planIcs(off, planCalendarEvent(off, ORIGIN)!));
    for (const line of ['UID:plan-p1@hangplan', 'SEQUENCE:8', 'STATUS:CANCELLED']) expect(lines).toContain(line);
  });

  it('links to Google Calendar with the same floating times', () => {
    const event = planCalendarEvent(locked('Evening', { location: 'Home' }), ORIGIN)!;
    const url = new URL(googleCalendarUrl(event));
    expect(`${url.origin}${url.pathname}`).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe('Bowling');
    expect(url.searchParams.get('dates')).toBe('20260314T180000/20260314T220000');
    expect(url.searchParams.get('details')).toContain(`${ORIGIN}/l/abcDEF12`);
    expect(url.searchParams.get('location')).toBe('Home');
    expect(new URL(googleCalendarUrl(planCalendarEvent(locked('Evening'), ORIGIN)!)).searchParams.has('location')).toBe(false);
  });

  it('names the file after the title', () => {
    expect(icsFileName(planCalendarEvent(locked('19:30', { lockedIdeaText: 'Board Games Night!' }), ORIGIN)!)).toBe(
      'board-games-night.ics',
    );
  });
});
