// The interests endpoints' requests (spec §7; docs/api.md "Interests and suggestions").
import { z } from 'zod';
import { INTEREST_TEXT_MAX } from './common.ts';
import { body, cleaner, UUID_PATTERN } from './fields.ts';

/** Interests are short labels compared like names (./text.ts): look-alikes are duplicates. */
const cleanInterest = cleaner('Interest', 'name');

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
