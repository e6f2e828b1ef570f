import { describe, expect, it } from 'vitest';
import { paths } from './paths';

describe('paths', () => {
  it('builds the sign-in link with a readable returnTo', () => {
    expect(paths.auth.getHref()).toBe('/auth');
    expect(paths.auth.getHref('/home')).toBe('/auth?returnTo=/home');
    expect(paths.auth.getHref('/plan/a b?tab=x&y=1')).toBe('/auth?returnTo=/plan/a%20b%3Ftab%3Dx%26y%3D1');
  });

  it('round-trips returnTo through URLSearchParams', () => {
    const href = paths.auth.getHref('/plan/42?tab=ideas&x=%2F');
    const returnTo = new URL(href, 'https://example.test').searchParams.get('returnTo');
    expect(returnTo).toBe('/plan/42?tab=ideas&x=%2F');
  });

  it('encodes ids and slugs', () => {
    expect(paths.planShare.getHref('a/b')).toBe('/plan/a%2Fb/share');
    expect(paths.guestDashboard.getHref('abcDEF12')).toBe('/l/abcDEF12/dashboard');
  });
});
