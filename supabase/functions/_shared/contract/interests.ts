// The interests endpoints' contract (spec §3 Interest, Interest catalogue item;
// §7; decisions.md "Interests and suggestions").
import { z } from 'zod';
import { body, cleaner } from '../validation.ts';
import { INTEREST_TEXT_MAX } from './common.ts';

export { INTEREST_TEXT_MAX };

/** Interests are short labels compared like names (_shared/text.ts): look-alikes are duplicates. */
const cleanInterest = cleaner('Interest', 'name');

export const INTEREST_NOT_FOUND = 'Interest not found';
export const INTEREST_TAKEN = 'You already have that interest';
export const UNKNOWN_CATALOG_ITEM = 'Catalog id does not name a catalogue interest';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /api/users/me/interests: `{freeFormText}` or `{catalogId, freeFormText}`.
 * With a catalogId, freeFormText may be left out (the catalogue name is used).
 */
export const createInterestBody = body({
  freeFormText: z
    .union([z.string(), z.null()], { error: 'Interest must be text' })
    .optional()
    .transform((value, ctx) => (typeof value === 'string' ? cleanInterest(value, ctx) : null))
    .refine((value) => value === null || value.length > 0, 'Interest is required')
    .refine((value) => value === null || value.length <= INTEREST_TEXT_MAX, `Interest must be at most ${INTEREST_TEXT_MAX} characters`),
  catalogId: z
    .union([z.string().regex(UUID_PATTERN, 'Catalog id must be a valid id'), z.null()], { error: 'Catalog id must be a valid id' })
    .optional()
    .transform((value) => value?.toLowerCase() ?? null),
}).refine((value) => value.freeFormText !== null || value.catalogId !== null, {
  error: 'Interest is required',
  path: ['freeFormText'],
});

/** Spec §3 Interest catalogue item. */
export interface CatalogItem {
  id: string;
  name: string;
  /** Icon name: gamepad, utensils, tree, globe, coffee, music, film, book. */
  icon: string;
}

/** Spec §3 Interest (user), plus when it was added. */
export interface UserInterest {
  id: string;
  freeFormText: string;
  /** Set when picked from the catalogue (the 'Added' badge). */
  catalogId: string | null;
  /** ISO 8601, UTC, milliseconds. */
  createdAt: string;
}
