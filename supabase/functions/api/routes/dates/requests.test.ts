import { describe, expect, it } from 'vitest';
import {
  lockDateBody,
  myVotesAnswersQuery,
  noDatesBody,
  setEventTimeBody,
  setLocationBody,
  timeSlotVoteBody,
  voteDateBody,
} from '../../../_shared/contract/dates-requests.ts';
import { ANSWER_INVALID, DATE_INVALID, PERIOD_INVALID, TIME_INVALID, TIME_SLOT_NOT_FOUND, TIME_ZONE_INVALID } from '../../../_shared/contract/dates.ts';
import { HttpError } from '../../../_shared/http/errors.ts';
import { rejectionOf } from '../../../_shared/http/validation-test-helpers.ts';
import { pathId } from '../../../_shared/http/params.ts';
import { validate } from '../../../_shared/http/validation.ts';

const GUEST = '0B6F2A4E-8C1D-4E5F-9A7B-3C2D1E0F9A8B';

describe('vote-date body', () => {
  it('date required and real; period normalised; guestId lower-cased', () => {
    expect(validate(voteDateBody, { date: '2026-03-14' })).toEqual({ date: '2026-03-14', period: null, guestId: null, answer: 'yes' });
    expect(validate(voteDateBody, { date: ' 2026-03-14 ', period: 'evening', guestId: GUEST, answer: 'ifneedbe' })).toEqual({
      date: '2026-03-14',
      period: 'Evening',
      guestId: GUEST.toLowerCase(),
      answer: 'ifneedbe',
    });
    expect(validate(voteDateBody, { date: '2026-03-14', period: '07:30', guestId: null }).period).toBe('7:30');
    expect(validate(voteDateBody, { date: '2026-03-14', period: '' }).period).toBeNull();
    expect(rejectionOf(voteDateBody, {})).toBe('Date is required');
    for (const date of ['2026-02-30', '2026-13-01', '14/03/2026', '2026-3-14', 20260314, '']) {
      expect(rejectionOf(voteDateBody, { date })).toBe(DATE_INVALID);
    }
    expect(rejectionOf(voteDateBody, { date: '2026-03-14', period: 'Brunch' })).toBe(PERIOD_INVALID);
    expect(rejectionOf(voteDateBody, { date: '2026-03-14', period: 7 })).toBe(PERIOD_INVALID);
    expect(rejectionOf(voteDateBody, { date: '2026-03-14', guestId: 'nope' })).toBe('guestId must be a valid id');
  });
  it('timeslot vote body', () => {
    expect(validate(timeSlotVoteBody, {})).toEqual({ guestId: null, answer: 'yes' });
    expect(validate(timeSlotVoteBody, { answer: 'ifneedbe' })).toEqual({ guestId: null, answer: 'ifneedbe' });
    expect(rejectionOf(timeSlotVoteBody, { guestId: 5 })).toBe('guestId must be a valid id');
  });
  it('an answer is "yes" or "ifneedbe", nothing else', () => {
    expect(validate(timeSlotVoteBody, { answer: 'yes' }).answer).toBe('yes');
    for (const answer of ['Yes', 'maybe', 'no', '', ' yes', 'if need be', null, 1, true, {}, ['yes']]) {
      expect(rejectionOf(voteDateBody, { date: '2026-03-14', answer })).toBe(ANSWER_INVALID);
      expect(rejectionOf(timeSlotVoteBody, { answer })).toBe(ANSWER_INVALID);
    }
  });
  it('no-dates body and the my-votes answers parameter', () => {
    expect(validate(noDatesBody, {})).toEqual({ guestId: null });
    expect(validate(noDatesBody, { guestId: GUEST }).guestId).toBe(GUEST.toLowerCase());
    expect(rejectionOf(noDatesBody, { guestId: 'x' })).toBe('guestId must be a valid id');
    expect(validate(myVotesAnswersQuery, undefined)).toBeUndefined();
    expect(validate(myVotesAnswersQuery, 'true')).toBe('true');
    expect(rejectionOf(myVotesAnswersQuery, 'yes')).toBe('answers must be true or false');
  });
});

describe('host bodies', () => {
  it('lock-date', () => {
    expect(validate(lockDateBody, { date: '2028-02-29' })).toEqual({ date: '2028-02-29' });
    expect(rejectionOf(lockDateBody, { date: '2027-02-29' })).toBe(DATE_INVALID);
  });
  it("set-event-time: 'HH:mm' 24-hour, normalised to H:mm", () => {
    expect(validate(setEventTimeBody, { time: '19:30' }).time).toBe('19:30');
    expect(validate(setEventTimeBody, { time: '07:05' }).time).toBe('7:05');
    expect(rejectionOf(setEventTimeBody, {})).toBe('Time is required');
    for (const time of ['7:00 PM', '24:00', '19:60', '1930', '', 19]) expect(rejectionOf(setEventTimeBody, { time })).toBe(TIME_INVALID);
  });
  it("set-event-time: the host's IANA time zone as the browser names it, or null", () => {
    expect(validate(setEventTimeBody, { time: '19:30' })).toEqual({ time: '19:30', timeZone: null });
    expect(validate(setEventTimeBody, { time: '19:30', timeZone: null })).toEqual({ time: '19:30', timeZone: null });
    expect(validate(setEventTimeBody, { time: '19:30', timeZone: 'Europe/Berlin' })).toEqual({ time: '19:30', timeZone: 'Europe/Berlin' });
    expect(validate(setEventTimeBody, { time: '19:30', timeZone: ' Asia/Kolkata ' }).timeZone).toBe('Asia/Kolkata');
    expect(validate(setEventTimeBody, { time: '19:30', timeZone: 'UTC' }).timeZone).toBe('UTC');
    for (const timeZone of ['Mars/Olympus_Mons', '', 'Europe/Berlin; DROP', '+02:00', 'x'.repeat(65), 5, {}, ['UTC']]) {
      expect(rejectionOf(setEventTimeBody, { time: '19:30', timeZone })).toBe(TIME_ZONE_INVALID);
    }
  });
  it('location: trimmed, 0-500, empty or null clears', () => {
    expect(validate(setLocationBody, { location: '  Park  ' })).toEqual({ location: 'Park' });
    expect(validate(setLocationBody, { location: '' })).toEqual({ location: '' });
    expect(validate(setLocationBody, { location: null })).toEqual({ location: '' });
    expect(validate(setLocationBody, { location: ` ${'x'.repeat(500)} ` }).location).toHaveLength(500);
    expect(rejectionOf(setLocationBody, { location: 'x'.repeat(501) })).toBe('Location must be at most 500 characters');
    expect(rejectionOf(setLocationBody, {})).toBe('Location is required');
    expect(rejectionOf(setLocationBody, { location: 5 })).toBe('Location must be text');
  });
});

describe('pathId', () => {
  it('404 for anything but a uuid', () => {
    expect(pathId(GUEST, TIME_SLOT_NOT_FOUND)).toBe(GUEST.toLowerCase());
    expect(() => pathId('nope', TIME_SLOT_NOT_FOUND)).toThrow('Time slot not found');
    expect(() => pathId(undefined, TIME_SLOT_NOT_FOUND)).toThrow(HttpError);
  });
});
