// Ids and slugs taken from the URL. Anything that is not a uuid (or a slug)
// cannot name a row, so it is answered like an unknown one (404 with the
// resource's sentence: nothing leaks), never a 500 from a failed cast.
import { PLAN_NOT_FOUND, SLUG_PATTERN } from '../contract/plans.ts';
import { UUID_PATTERN } from '../contract/fields.ts';
import { HttpError } from './errors.ts';

/** The id, lower-cased like the database prints it; else 404 `notFound`. */
export function pathId(value: string | undefined, notFound: string): string {
  if (!value || !UUID_PATTERN.test(value)) throw new HttpError(404, notFound);
  return value.toLowerCase();
}

/** A slug from the URL; a malformed one is "Plan not found" like an unknown one. */
export function planSlugParam(value: string | undefined): string {
  if (!value || !SLUG_PATTERN.test(value)) throw new HttpError(404, PLAN_NOT_FOUND);
  return value;
}
