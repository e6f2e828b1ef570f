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

/**
 * Initials of a display name alone (participants and voters have no e-mail):
 * first and last word's initials, else the first two letters of the one word.
 */
export function nameInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  if (words.length === 1) return firstTwo(words[0]!).toUpperCase();
  return (firstOne(words[0]!) + firstOne(words.at(-1)!)).toUpperCase();
}
