import { z } from 'zod/mini';

// GET /api/interests/catalog and /api/users/me/interests (spec §3 Interest,
// Interest catalogue item; supabase/functions/_shared/contract/interests.ts).

/** app.user_interests.free_form_text: 1-80 characters after trimming. */
export { INTEREST_TEXT_MAX } from '../../../../supabase/functions/_shared/contract/common';

export const catalogItemSchema = z.object({ id: z.string(), name: z.string(), icon: z.string() });
export type CatalogItem = z.infer<typeof catalogItemSchema>;
export const catalogSchema = z.array(catalogItemSchema);

export const userInterestSchema = z.object({
  id: z.string(),
  freeFormText: z.string(),
  catalogId: z.nullish(z.string()),
});
export type UserInterest = z.infer<typeof userInterestSchema>;
export const userInterestListSchema = z.array(userInterestSchema);
