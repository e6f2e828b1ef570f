// One error shape for the whole API: a status and ONE human sentence as
// text/plain, so the client's "{status}: {text}" toast reads well (spec §8).
import { HTTPException } from 'hono/http-exception';
import { NOT_AN_OBJECT } from '../contract/common.ts';

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 502 | 503;

export class HttpError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    /** Sent as `Retry-After` (seconds): with 429 (and 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** How long to wait, in words: '30 seconds', 'a minute', '12 minutes', 'an hour', '3 hours'. Rounded up. */
export function waitPhrase(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return s === 1 ? 'a second' : `${s} seconds`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return minutes === 1 ? 'a minute' : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? 'an hour' : `${hours} hours`;
}

/**
 * Over a rate limit: 429, `Retry-After`, and one sentence built from what is
 * limited: "Too many ideas in a short time, please try again in a minute".
 */
export function tooManyRequests(what: string, seconds: number): HttpError {
  const wait = Math.max(1, Math.ceil(seconds));
  return new HttpError(429, `${what}, please try again in ${waitPhrase(wait)}`, wait);
}

/** Sentences used in more than one place (tests assert them too). */
export const messages = {
  notFound: 'Not found',
  invalidJson: 'Request body must be valid JSON',
  notAnObject: NOT_AN_OBJECT,
  bodyTooLarge: 'Request body is too large',
  notSignedIn: 'Not signed in',
  sessionExpired: 'Your session has expired, please sign in again',
  unexpected: 'Something went wrong on our side',
} as const;

export function textResponse(status: number, message: string, retryAfterSeconds?: number): Response {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  return new Response(message, { status, headers });
}

/** SQLSTATEs our SQL functions raise for rule violations; the message is user-facing. */
const DB_RULE_STATUS: Record<string, ErrorStatus> = { HP400: 400, HP401: 401, HP403: 403, HP404: 404, HP409: 409, HP422: 422 };

/** Error object shape of postgres.js (PostgresError) without importing the driver. */
function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for a unique violation, optionally of one constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlState(error) !== '23505') return false;
  return !constraint || (error as { constraint_name?: string }).constraint_name === constraint;
}

/**
 * Check violations (23514) of user input that got past validation, by
 * constraint: the sentence names the field like validation would.
 */
const CHECK_MESSAGES: Record<string, string> = {
  plans_title_length: 'Title must be 1 to 120 characters',
  plans_description_length: 'Description must be at most 2000 characters',
  plans_location_length: 'Location must be at most 500 characters',
  guests_name_length: 'Name must be 1 to 80 characters',
  participants_name_length: 'Name must be 1 to 254 characters',
  ideas_text_length: 'Idea text must be 1 to 280 characters',
  idea_comments_text_length: 'Comment text must be 1 to 1000 characters',
  user_interests_free_form_text_length: 'Interest must be 1 to 80 characters',
  users_first_name_length: 'First name must be at most 80 characters',
  users_last_name_length: 'Last name must be at most 80 characters',
  users_email_length: 'Email must be a valid e-mail address',
  users_email_shape: 'Email must be a valid e-mail address',
  users_email_normalised: 'Email must be a valid e-mail address',
};

/** Sentences for database errors that are the request's fault, never a 500. */
const dbMessages = {
  checkViolation: 'A value sent is not allowed',
  uniqueViolation: 'That already exists',
  notNullViolation: 'A required value is missing',
  foreignKeyViolation: 'Something this refers to was changed or removed at the same moment, please try again',
  invalidCharacters: 'Text must not contain NUL or other characters that cannot be stored',
  invalidValue: 'A value sent is not valid',
  busy: 'The server is busy, please try again',
} as const;

/**
 * The answer to a database error that is not a bug, or null: rule errors
 * (HP4xx, the message is the sentence; HP429 carries the wait in seconds as
 * its DETAIL) and every constraint or data error, which means input got past
 * validation (a 4xx, logged as a warning so the validation can be fixed).
 */
function databaseErrorResponse(error: unknown, state: string, context: string): Response | null {
  const e = error as { message?: unknown; detail?: unknown; constraint_name?: unknown };
  const message = typeof e.message === 'string' ? e.message : '';
  if (state in DB_RULE_STATUS && message) return textResponse(DB_RULE_STATUS[state], message);
  if (state === 'HP429' && message) {
    const limited = tooManyRequests(message, Number.parseInt(String(e.detail ?? ''), 10) || 60);
    return textResponse(429, limited.message, limited.retryAfterSeconds);
  }
  const warn = () => console.warn(`Database refused input${context ? ` in ${context}` : ''}: ${state} ${message}`);
  const constraint = typeof e.constraint_name === 'string' ? e.constraint_name : '';
  switch (state) {
    case '23514':
      warn();
      return textResponse(400, CHECK_MESSAGES[constraint] ?? dbMessages.checkViolation);
    case '23505':
      warn();
      return textResponse(409, dbMessages.uniqueViolation);
    case '23502':
      warn();
      return textResponse(400, dbMessages.notNullViolation);
    case '23503':
      warn();
      return textResponse(409, dbMessages.foreignKeyViolation);
    // Serialization failure, deadlock, lock not available: try again.
    case '40001':
    case '40P01':
    case '55P03':
      warn();
      return textResponse(503, dbMessages.busy, 1);
  }
  // Class 22, data exceptions: a NUL byte (22021), untranslatable text
  // (22P05), a value too long or out of range, a bad date or number.
  if (state.startsWith('22')) {
    warn();
    return textResponse(400, state === '22021' || state === '22P05' ? dbMessages.invalidCharacters : dbMessages.invalidValue);
  }
  // Program limits (54xxx), e.g. a value too big for an index.
  if (state.startsWith('54')) {
    warn();
    return textResponse(400, dbMessages.invalidValue);
  }
  return null;
}

/**
 * Turn anything thrown while handling a request into the response. Our own
 * errors, the DB's rule errors and every constraint or data error of the
 * database answer with a sentence (see databaseErrorResponse); everything
 * else is a bug: logged with its details, answered with a sentence that leaks
 * nothing.
 */
export function toErrorResponse(error: unknown, context = ''): Response {
  if (error instanceof HttpError) return textResponse(error.status, error.message, error.retryAfterSeconds);
  const state = sqlState(error);
  if (state && error instanceof Error) {
    const response = databaseErrorResponse(error, state, context);
    if (response) return response;
  }
  if (error instanceof HTTPException && error.status < 500) {
    return textResponse(error.status, error.status === 413 ? messages.bodyTooLarge : error.message || 'Bad request');
  }
  console.error(`Unexpected error${context ? ` in ${context}` : ''}:`, error);
  return textResponse(500, messages.unexpected);
}
