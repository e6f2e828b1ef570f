import { describe, expect, it } from 'vitest';
import { initials, nameInitials } from './initials';

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

describe('nameInitials', () => {
  it('takes the first and last word', () => {
    expect(nameInitials('Ada Lovelace')).toBe('AL');
    expect(nameInitials('  mary  ann   evans ')).toBe('ME');
  });

  it('takes two letters of a single word', () => {
    expect(nameInitials('bob')).toBe('BO');
    expect(nameInitials('Z')).toBe('Z');
    expect(nameInitials('émile')).toBe('ÉM');
  });

  it('shows a question mark for a blank name', () => {
    expect(nameInitials('   ')).toBe('?');
  });
});
