import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it('takes the first and last initials', () => {
    expect(initials({ email: 'ada@example.com', firstName: 'ada', lastName: 'lovelace' })).toBe('AL');
  });

  it('takes two letters of the first name without a last name', () => {
    expect(initials({ email: 'x@example.com', firstName: 'bob', lastName: null })).toBe('BO');
  });

  it('takes two letters of the e-mail local part without a first name', () => {
    expect(initials({ email: 'zoe.q@example.com', firstName: '  ', lastName: 'Quinn' })).toBe('ZO');
    expect(initials({ email: 'z@example.com' })).toBe('Z');
  });

  it('keeps non-ASCII letters whole', () => {
    expect(initials({ email: 'e@example.com', firstName: 'émile', lastName: 'Öz' })).toBe('ÉÖ');
  });
});
