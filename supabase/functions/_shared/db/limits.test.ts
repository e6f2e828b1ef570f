import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS, limitsJson, parseLimitOverrides, participantKey, rateLimits } from './limits.ts';

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.RATE_LIMITS;
});

describe('the limits', () => {
  it('defaults: the numbers of docs/security-and-limits.md', () => {
    const summary = Object.fromEntries(Object.entries(DEFAULT_LIMITS).map(([name, l]) => [name, `${l.max}/${l.windowSeconds}`]));
    expect(summary).toEqual({
      'otp-ip': '30/3600',
      'otp-site': '120/3600',
      'otp-address': '5/3600',
      'otp-guess-ip': '50/3600',
      'otp-guess-site': '200/3600',
      'otp-guess-account': '30/86400',
      'guest-ip': '60/3600',
      'guest-name': '60/3600',
      idea: '10/60',
      comment: '20/60',
      vote: '120/60',
      plan: '50/86400',
      remind: '1/43200',
      'calendar-feed': '120/3600',
      'calendar-feed-miss': '60/3600',
    });
  });

  it('RATE_LIMITS overrides max and window (s, m, h, d), keeps the message', () => {
    process.env.RATE_LIMITS = 'idea=2/5, vote = 3/1m,otp-ip=100/2h,plan=1/1d';
    const limits = rateLimits();
    expect(limits.idea).toEqual({ ...DEFAULT_LIMITS.idea, max: 2, windowSeconds: 5 });
    expect(limits.vote).toMatchObject({ max: 3, windowSeconds: 60 });
    expect(limits['otp-ip']).toMatchObject({ max: 100, windowSeconds: 7200 });
    expect(limits.plan).toMatchObject({ max: 1, windowSeconds: 86_400 });
    expect(limits.comment).toEqual(DEFAULT_LIMITS.comment);
    delete process.env.RATE_LIMITS;
    expect(rateLimits().idea).toEqual(DEFAULT_LIMITS.idea);
  });

  it('malformed or unknown entries are logged and ignored', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(parseLimitOverrides('nope=1/1,idea=0/5,vote=abc,comment=5/0,idea=3/4')).toEqual({ idea: { max: 3, windowSeconds: 4 } });
    expect(log).toHaveBeenCalledTimes(4);
    expect(parseLimitOverrides(undefined)).toEqual({});
  });

  it('the statement argument: key prefixed by the limit, its numbers and sentence', () => {
    expect(JSON.parse(limitsJson([{ limit: 'vote', key: participantKey(null, 'g1') }, { limit: 'otp-site', key: '2001:db8:1:200::/56' }]))).toEqual([
      { key: 'vote:g:g1', max: 120, window: 60, message: 'Too many votes in a short time' },
      { key: 'otp-site:2001:db8:1:200::/56', max: 120, window: 3600, message: 'Too many codes were requested from your network' },
    ]);
    expect(participantKey('u1', 'g1')).toBe('u:u1');
  });

  it('RATE_LIMIT_SCOPE prefixes every key (servers sharing a database, not counters)', () => {
    process.env.RATE_LIMIT_SCOPE = 'staging';
    try {
      expect(JSON.parse(limitsJson([{ limit: 'idea', key: 'u:1' }]))[0].key).toBe('staging/idea:u:1');
    } finally {
      delete process.env.RATE_LIMIT_SCOPE;
    }
  });
});
