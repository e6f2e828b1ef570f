// Validation at the edge of every handler: zod schemas built from the field
// helpers below, and one place that turns a failure into a 400 whose body is
// ONE sentence naming the field and what is wrong with it.
import type { Context } from 'hono';
import { z } from 'zod';
import { HttpError, messages } from './errors.ts';

/** "Email is required" for a missing field, `wrongType` for anything else. */
function typeError(label: string, wrongType: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `${label} is required` : wrongType);
}

/** Trimmed text of min..max characters. */
export function text(label: string, { min = 1, max }: { min?: number; max: number }) {
  const base = z.string({ error: typeError(label, `${label} must be text`) }).trim();
  const bounded = base.max(max, `${label} must be at most ${max} characters`);
  return min > 0 ? bounded.min(min, min === 1 ? `${label} must not be empty` : `${label} must be at least ${min} characters`) : bounded;
}

/** Optional, nullable trimmed text where blank means "none" (null). */
export function optionalText(label: string, { max }: { max: number }) {
  return z
    .union([z.string(), z.null()], { error: `${label} must be text` })
    .optional()
    .transform((value) => (typeof value === 'string' ? value.trim() || null : value))
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
