import { nameParts, type PersonName } from './person-name';

// Array.from splits by code point, so an emoji or accented letter stays whole.
const firstTwo = (text: string) => Array.from(text).slice(0, 2).join('');
const firstOne = (text: string) => Array.from(text)[0] ?? '';

/**
 * Spec §3: first and last initials, else the first two letters of the first
 * name, else the first two letters of the e-mail's local part. Upper case.
 */
export function initials(person: PersonName): string {
  const { first, last, emailLocal } = nameParts(person);
  if (first && last) return (firstOne(first) + firstOne(last)).toUpperCase();
  return firstTwo(first || emailLocal).toUpperCase();
}
