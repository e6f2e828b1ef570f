import { describe, expect, it } from 'vitest';
import { sanitizeReturnTo } from './return-to';

describe('sanitizeReturnTo', () => {
  it('keeps same-site paths with their query and hash', () => {
    expect(sanitizeReturnTo('/plan/42/share')).toBe('/plan/42/share');
    expect(sanitizeReturnTo('/l/abcDEF12?x=1#top')).toBe('/l/abcDEF12?x=1#top');
    expect(sanitizeReturnTo('/')).toBe('/');
  });

  it('defaults to /home when absent', () => {
    expect(sanitizeReturnTo(null)).toBe('/home');
    expect(sanitizeReturnTo(undefined)).toBe('/home');
    expect(sanitizeReturnTo('')).toBe('/home');
  });

  it.each([
    'https://evil.example/phish',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    'home',
    ' /home',
  ])('rejects %j', (raw) => {
    expect(sanitizeReturnTo(raw)).toBe('/home');
  });

  it('normalises dot segments without leaving the site', () => {
    expect(sanitizeReturnTo('/../../etc')).toBe('/etc');
  });
});
