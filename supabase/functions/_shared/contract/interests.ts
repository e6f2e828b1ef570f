// The interests endpoints' answers and sentences (spec §3 Interest, Interest
// catalogue item; §7; docs/api.md "Interests and suggestions").
import { z } from 'zod/mini';

export { INTEREST_TEXT_MAX } from './common.ts';

export const INTEREST_NOT_FOUND = 'Interest not found';
export const INTEREST_TAKEN = 'You already have that interest';
export const UNKNOWN_CATALOG_ITEM = 'Catalog id does not name a catalogue interest';

/** Spec §3 Interest catalogue item; `icon`: gamepad, utensils, tree, globe, coffee, music, film, book. */
export const catalogItemSchema = z.lazy(() => z.object({ id: z.string(), name: z.string(), icon: z.string() }));
export type CatalogItem = z.infer<typeof catalogItemSchema>;
export const catalogSchema = z.lazy(() => z.array(catalogItemSchema));

/** Spec §3 Interest (user), plus when it was added (ISO 8601, UTC, milliseconds). */
export const userInterestSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    freeFormText: z.string(),
    /** Set when picked from the catalogue (the 'Added' badge). */
    catalogId: z.nullish(z.string()),
    createdAt: z.string(),
  }),
);
export type UserInterest = z.infer<typeof userInterestSchema>;
export const userInterestListSchema = z.lazy(() => z.array(userInterestSchema));
