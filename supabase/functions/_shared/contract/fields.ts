// The field builders of the request schemas (contract/*-requests.ts): zod
// strings cleaned by the text rules (./text.ts), e-mails, ids, and the object
// of a JSON body. Each failure carries ONE sentence naming the field; the
// function's validation.ts turns the first one into the 400's body.
import { z } from 'zod';
import { NOT_AN_OBJECT, SLUG_PATTERN } from './common.ts';
import { GUEST_ID_INVALID } from './dates.ts';
import { cleanText, cleanTextProblem, type TextKind } from './text.ts';

/** "Email is required" for a missing field, `wrongType` for anything else. */
function typeError(label: string, wrongType: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `${label} is required` : wrongType);
}

/**
 * A string cleaned by the text rules of ./text.ts (trimmed, control characters
 * refused with "{label} must not contain control characters", invisible
 * characters removed, NFC; names also collapse whitespace). Chain length
 * checks after it with `.refine` (they then measure the cleaned text).
 */
export function cleanString(label: string, kind: TextKind, wrongType = `${label} must be text`) {
  return z.string({ error: typeError(label, wrongType) }).transform(cleaner(label, kind));
}

/** The transform of cleanString, for schemas that accept more than a string (null, ...). */
export function cleaner(label: string, kind: TextKind) {
  return (value: string, ctx: z.RefinementCtx): string => {
    const cleaned = cleanText(value, kind);
    if (cleaned.ok) return cleaned.value;
    ctx.addIssue({ code: 'custom', message: cleanTextProblem(label, cleaned.problem) });
    return z.NEVER;
  };
}

/** Cleaned text (./text.ts) of min..max characters; one line unless `kind` says otherwise. */
export function text(label: string, { min = 1, max, kind = 'line' }: { min?: number; max: number; kind?: TextKind }) {
  const bounded = cleanString(label, kind).refine((value) => value.length <= max, `${label} must be at most ${max} characters`);
  if (min <= 0) return bounded;
  return bounded.refine(
    (value) => value.length >= min,
    min === 1 ? `${label} must not be empty` : `${label} must be at least ${min} characters`,
  );
}

/** Optional, nullable cleaned text where blank means "none" (null). */
export function optionalText(label: string, { max, kind = 'line' }: { max: number; kind?: TextKind }) {
  const clean = cleaner(label, kind);
  return z
    .union([z.string(), z.null()], { error: `${label} must be text` })
    .optional()
    .transform((value, ctx) => (typeof value === 'string' ? clean(value, ctx) || null : value))
    .refine((value) => value == null || value.length <= max, `${label} must be at most ${max} characters`);
}

const INVALID_EMAIL = 'Email must be a valid e-mail address';

/** An e-mail address, normalised the way app.users stores it: trimmed and lower-cased. */
export function email(label = 'Email') {
  const invalid = label === 'Email' ? INVALID_EMAIL : `${label} must be a valid e-mail address`;
  return z
    .string({ error: typeError(label, invalid) })
    .trim()
    .toLowerCase()
    .max(254, invalid)
    .pipe(z.email({ error: invalid }));
}

export function uuid(label: string) {
  return z.string({ error: typeError(label, `${label} must be a valid id`) }).pipe(z.uuid({ error: `${label} must be a valid id` }));
}

/** A JSON object body; unknown keys are dropped, never echoed or stored. */
export function body<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape, { error: NOT_AN_OBJECT });
}

/** Every secret token the API hands out (a guest secret, an undo link's token): 32 random bytes, base64url, 43 characters. */
export const SECRET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A uuid in any letter case (the database prints them lower-cased). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The guest acting without a token, in a JSON body; null and absent alike mean "no guest". */
export function optionalGuestId() {
  return z
    .union([z.string().pipe(z.uuid({ error: GUEST_ID_INVALID })), z.null()], { error: GUEST_ID_INVALID })
    .optional()
    .transform((value) => value?.toLowerCase() ?? null);
}

const PLAN_LINK_INVALID = "Slug must be the code of a plan's link";

/**
 * The plan's link as a join page holds it: the slug of /l/{slug}, optional;
 * null and absent alike mean "none" (docs/decisions/0086).
 */
export function planLink() {
  return z
    .union([z.string().regex(SLUG_PATTERN, PLAN_LINK_INVALID), z.null()], { error: PLAN_LINK_INVALID })
    .optional()
    .transform((value) => value ?? null);
}
