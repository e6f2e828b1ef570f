import type { User } from '../auth';
import { nameParts } from '../../lib/person-name';

/**
 * How a signed-in visitor is named on the join page and in the join request
 * (spec §2, §6: 'first last', else the first name, else the whole e-mail).
 */
export function accountName(user: Pick<User, 'email' | 'firstName' | 'lastName'>): string {
  const { first, last } = nameParts(user);
  if (first && last) return `${first} ${last}`;
  return first || user.email.trim();
}
