import { describe, expect, it } from 'vitest';
import { displayName } from './display-name';

describe('displayName', () => {
  it('joins first and last name', () => {
    expect(displayName({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
  });

  it('falls back to the first name alone', () => {
    expect(displayName({ email: 'ada@example.com', firstName: 'Ada', lastName: null })).toBe('Ada');
    expect(displayName({ email: 'ada@example.com', firstName: ' Ada ', lastName: '   ' })).toBe('Ada');
  });

  it('falls back to the e-mail local part without a first name', () => {
    expect(displayName({ email: 'ada.l@example.com', firstName: null, lastName: 'Lovelace' })).toBe('ada.l');
    expect(displayName({ email: 'ada.l@example.com' })).toBe('ada.l');
    expect(displayName({ email: 'ada@example.com', firstName: '', lastName: '' })).toBe('ada');
  });
});
