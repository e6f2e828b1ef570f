import { nameParts, type PersonName } from './person-name';

/** Spec §3: 'first last', else the first name, else the e-mail before the @. */
export function displayName(person: PersonName): string {
  const { first, last, emailLocal } = nameParts(person);
  if (first && last) return `${first} ${last}`;
  return first || emailLocal;
}
