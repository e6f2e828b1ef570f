import { describe, expect, it } from 'vitest';
import { hostTimeNote, zoneCity } from './host-time';

const plan = (extra: Partial<{ date: string; time: string | null; timeZone: string | null }> = {}) => ({
  date: '2026-03-14',
  time: '7:30 PM',
  timeZone: 'Europe/Berlin',
  ...extra,
});

describe('hostTimeNote', () => {
  it("says the viewer's own time when their clock reads another", () => {
    // Berlin is UTC+1 on March 14; New York already on summer time (UTC-4).
    expect(hostTimeNote(plan(), 'America/New_York')).toBe('7:30 PM Berlin time is 2:30 PM where you are.');
    expect(hostTimeNote(plan({ timeZone: 'America/Los_Angeles' }), 'Asia/Kolkata')).toBe(
      '7:30 PM Los Angeles time is 8:00 AM on Sun, Mar 15 where you are.',
    );
    expect(hostTimeNote(plan({ time: '12:15 AM', timeZone: 'Asia/Tokyo' }), 'Europe/London')).toBe(
      '12:15 AM Tokyo time is 3:15 PM on Fri, Mar 13 where you are.',
    );
  });

  it('says nothing when the viewer is in the zone, or one whose clock reads the same then', () => {
    expect(hostTimeNote(plan(), 'Europe/Berlin')).toBeNull();
    expect(hostTimeNote(plan(), 'Europe/Paris')).toBeNull();
  });

  it('says nothing without a zone, a clock time, a viewer zone, or with a zone it does not know', () => {
    expect(hostTimeNote(plan({ timeZone: null }), 'America/New_York')).toBeNull();
    expect(hostTimeNote(plan({ time: null }), 'America/New_York')).toBeNull();
    expect(hostTimeNote(plan({ time: 'Evening' }), 'America/New_York')).toBeNull();
    expect(hostTimeNote(plan(), null)).toBeNull();
    expect(hostTimeNote(plan({ timeZone: 'Mars/Olympus_Mons' }), 'America/New_York')).toBeNull();
    expect(hostTimeNote(plan({ date: 'soon' }), 'America/New_York')).toBeNull();
  });

  it('names a zone by its city', () => {
    expect(zoneCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(zoneCity('UTC')).toBe('UTC');
  });
});
