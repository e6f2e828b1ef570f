// Validation at the edge of every handler: the request schemas of the
// contract (built from contract/fields.ts) checked in one place that turns a
// failure into a 400 whose body is ONE sentence naming the field and what is
// wrong with it.
import type { Context } from 'hono';
import { z } from 'zod';
import { HttpError, messages } from './errors.ts';

/** The first problem as one sentence (zod's default texts are replaced by contract/fields.ts's). */
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
