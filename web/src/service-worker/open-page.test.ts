import { describe, expect, it } from 'vitest';
import { notificationOf, windowToFocus } from './open-page';

const origin = 'https://hangplan.app';
const message = { title: 'Friday hangout', body: 'The host locked Fri, Nov 28.', url: '/l/abc123', tag: 'hangplan-7' };

describe('notificationOf', () => {
  it("shows the server's message as it is", () => {
    expect(notificationOf(JSON.stringify(message), origin)).toEqual(message);
  });

  it('opens only pages of the app: another origin or a script URL opens /', () => {
    for (const url of ['https://evil.example/l/abc123', 'javascript:alert(1)', '//evil.example/x']) {
      expect(notificationOf(JSON.stringify({ ...message, url }), origin).url).toBe('/');
    }
    expect(notificationOf(JSON.stringify({ ...message, url: `${origin}/plan/1?tab=ideas` }), origin).url).toBe('/plan/1?tab=ideas');
  });

  it('shows a plain notice for a message it cannot read (a push must show something)', () => {
    for (const text of [undefined, '', 'not json', '{"title": 3}', 'null']) {
      expect(notificationOf(text, origin)).toEqual({
        title: 'Hangplan',
        body: 'Something changed in one of your plans.',
        url: '/',
        tag: 'hangplan',
      });
    }
  });
});

describe('windowToFocus', () => {
  const windows = (...paths: string[]) => paths.map((path) => ({ url: `${origin}${path}` }));

  it("focuses the tab showing the page, or a page under it (the guest's dashboard)", () => {
    expect(windowToFocus(windows('/', '/plan/1'), '/plan/1', origin)).toBe(1);
    expect(windowToFocus(windows('/l/abc123/dashboard?tab=ideas'), '/l/abc123', origin)).toBe(0);
    expect(windowToFocus(windows('/plan/1/', '/plan/1'), '/plan/1', origin)).toBe(0);
  });

  it('opens a new tab rather than taking one showing something else', () => {
    expect(windowToFocus(windows('/plan/12', '/l/abc1234', '/profile'), '/plan/1', origin)).toBe(-1);
    expect(windowToFocus(windows('/l/abc123'), '/l/abc', origin)).toBe(-1);
    expect(windowToFocus(windows('/plan/1'), '/', origin)).toBe(-1);
    expect(windowToFocus([{ url: 'https://other.example/plan/1' }], '/plan/1', origin)).toBe(-1);
  });

  it('the home page is focused only where it is open', () => {
    expect(windowToFocus(windows('/plan/1', '/'), '/', origin)).toBe(1);
  });
});
