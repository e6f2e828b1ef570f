import { describe, expect, it } from 'vitest';
import { busyLabel, clockLabel, importSummary } from './busy-calendar';

const h = (hour: number, minute = 0) => hour * 60 + minute;

describe('busy calendar', () => {
  it('says the clock the way the app does', () => {
    expect(clockLabel(0)).toBe('12 AM');
    expect(clockLabel(h(9))).toBe('9 AM');
    expect(clockLabel(h(12))).toBe('12 PM');
    expect(clockLabel(h(19, 30))).toBe('7:30 PM');
    expect(clockLabel(h(23, 5))).toBe('11:05 PM');
  });

  it.each([
    [[[0, 1440]], 'busy all day'],
    [[[h(9), h(17)]], 'busy 9 AM–5 PM'],
    [[[h(19), h(21, 30)]], 'busy 7 PM–9:30 PM'],
    [[[h(22, 30), 1440]], 'busy from 10:30 PM'],
    [[[0, h(1, 30)]], 'busy until 1:30 AM'],
    [[[0, h(1)], [h(19), h(21)]], 'busy until 1 AM and 7 PM–9 PM'],
    [[[h(8), h(9)], [h(12), h(13)], [h(18), h(19)]], 'busy 8 AM–9 AM, 12 PM–1 PM and 6 PM–7 PM'],
    [[], ''],
  ] as const)('%j reads %s', (ranges, label) => expect(busyLabel(ranges)).toBe(label));

  it('sums an import up for the next 2 weeks and the year', () => {
    const window = { today: '2026-11-26', twoWeeksEnd: '2026-12-09', yearEnd: '2027-11-26' };
    const days = { '2026-11-25': [[0, 1440]], '2026-11-27': [[0, 1440]], '2026-12-20': [[0, 60]] } as const;
    expect(importSummary({ fileName: 'work.ics', days }, window)).toBe('From work.ics: 1 busy day in the next 2 weeks, 2 in the next year.');
    expect(importSummary({ fileName: 'work.ics', days: {} }, window)).toBe(
      'From work.ics: no busy days in the next year.',
    );
    expect(importSummary({ fileName: 'work.ics', days: { '2026-12-20': [[0, 60]] } }, window)).toBe(
      'From work.ics: no busy days in the next 2 weeks, 1 in the next year.',
    );
  });
});
