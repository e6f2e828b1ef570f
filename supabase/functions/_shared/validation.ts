// Validation at the edge of every handler: zod schemas built from the field
// helpers below, and one place that turns a failure into a 400 whose body is
// ONE sentence naming the field and what is wrong with it.
import type { Context } from 'hono';
import { z } from 'zod';
import { HttpError, messages } from './errors.ts';
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
  return z.object(shape, { error: messages.notAnObject });
}

/** The first problem as one sentence (zod's default texts are replaced by ours above). */
export function firstIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Request is invalid';
  if (issue.message && !issue.message.startsWith('Invalid input')) return issue.message;
  const field = issue.path.join('.');
  return field ? `${field} is invalid` : 'Request is invalid';
}

export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpError(400, firstIssueMessage(result.error));
  return result.data;
}

/**
 * Parse and validate a JSON body. An empty body counts as `{}`, so a missing
 * body reads "Email is required" rather than a JSON complaint.
 */
export async function parseBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const raw = await c.req.text();
  let value: unknown = {};
  if (raw.trim()) {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new HttpError(400, messages.invalidJson);
    }
  }
  return validate(schema, value);
}
