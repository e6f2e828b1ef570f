import { describe, expect, it } from 'vitest';
import {
  CANCELLED_LINE,
  firstName,
  formatCardDate,
  GENERIC_PREVIEW_IMAGE,
  GENERIC_PREVIEW_TITLE,
  linkPreviewOf,
  type PreviewFacts,
  previewImagePath,
  previewStatusLine,
} from './previews.ts';

const planning: PreviewFacts = {
  title: 'Ramen night',
  status: 'planning',
  hostName: 'Hana Sato',
  date: null,
  eventTime: null,
  period: null,
  location: null,
  going: 0,
};
const set: PreviewFacts = { ...planning, status: 'completed', date: '2026-12-05', eventTime: '7:30 PM', location: 'Kenji Ramen' };

describe('previewStatusLine', () => {
  it('planning: the host\'s first name and what to do', () => {
    expect(previewStatusLine(planning)).toBe('Hana wants to hang out. Suggest ideas and vote on dates.');
    expect(previewStatusLine({ ...planning, hostName: '  ' })).toBe('A friend wants to hang out. Suggest ideas and vote on dates.');
  });

  it('a date set: the day, the time and the place, then who is going once anyone is', () => {
    expect(previewStatusLine(set)).toBe('Saturday, December 5 at 7:30 PM, Kenji Ramen');
    expect(previewStatusLine({ ...set, going: 5 })).toBe('Saturday, December 5 at 7:30 PM, Kenji Ramen · 5 going');
    expect(previewStatusLine({ ...set, location: null, going: 1 })).toBe('Saturday, December 5 at 7:30 PM · 1 going');
  });

  it('a day locked without the time: the slot\'s period, or the day alone', () => {
    const day = { ...set, status: 'time_range_locked' as const, eventTime: null };
    expect(previewStatusLine({ ...day, period: 'Evening' })).toBe('Saturday, December 5 at 7PM, Kenji Ramen');
    expect(previewStatusLine({ ...day, period: null, location: null })).toBe('Saturday, December 5');
    expect(previewStatusLine({ ...day, status: 'date_locked', period: '19:30' })).toBe('Saturday, December 5 at 7:30PM, Kenji Ramen');
  });

  it('cancelled, whatever was set', () => {
    expect(previewStatusLine({ ...set, status: 'cancelled', going: 4 })).toBe(CANCELLED_LINE);
    expect(previewStatusLine({ ...planning, status: 'cancelled' })).toBe('Cancelled');
  });

  it('one line: line breaks and runs of spaces in the place become one space', () => {
    expect(previewStatusLine({ ...set, location: ' Kenji\n  Ramen ' })).toBe('Saturday, December 5 at 7:30 PM, Kenji Ramen');
  });
});

describe('the card', () => {
  it('details on: title, line, host, the picture of this version', () => {
    expect(linkPreviewOf('abcDEF123_-x', '12', set, true)).toEqual({
      previewDetails: true,
      title: 'Ramen night',
      description: 'Saturday, December 5 at 7:30 PM, Kenji Ramen',
      hostFirstName: 'Hana',
      image: '/api/plans/slug/abcDEF123_-x/preview.png?v=12',
      imageAlt: 'Ramen night: Saturday, December 5 at 7:30 PM, Kenji Ramen',
      version: '12',
    });
  });

  it('details off, or no facts: the generic card, nothing of the plan', () => {
    for (const card of [linkPreviewOf('abcDEF123_-x', '3', set, false), linkPreviewOf('abcDEF123_-x', '3', null, true)]) {
      expect(card).toMatchObject({ previewDetails: false, title: GENERIC_PREVIEW_TITLE, image: GENERIC_PREVIEW_IMAGE, hostFirstName: null });
      expect(JSON.stringify(card)).not.toMatch(/Ramen|Hana|Kenji/);
    }
  });

  it('helpers: a first name, a day without the year, a picture path', () => {
    expect(firstName(' Hana  Sato ')).toBe('Hana');
    expect(firstName(null)).toBeNull();
    expect(formatCardDate('2027-01-01')).toBe('Friday, January 1');
    expect(formatCardDate('soon')).toBe('soon');
    expect(previewImagePath('a b', '7')).toBe('/api/plans/slug/a%20b/preview.png?v=7');
  });
});
