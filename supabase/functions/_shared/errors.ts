// One error shape for the whole API: a status and ONE human sentence as
// text/plain, so the client's "{status}: {text}" toast reads well (spec §8).
import { HTTPException } from 'hono/http-exception';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503;

export class HttpError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Sentences used in more than one place (tests assert them too). */
export const messages = {
  notFound: 'Not found',
  invalidJson: 'Request body must be valid JSON',
  notAnObject: 'Request body must be a JSON object',
  bodyTooLarge: 'Request body is too large',
  notSignedIn: 'Not signed in',
  sessionExpired: 'Your session has expired, please sign in again',
  unexpected: 'Something went wrong on our side',
} as const;

export function textResponse(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}

/** SQLSTATEs our SQL functions raise for rule violations; the message is user-facing. */
const DB_RULE_STATUS: Record<string, ErrorStatus> = { HP400: 400, HP401: 401, HP403: 403, HP404: 404, HP409: 409 };

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
 * Turn anything thrown while handling a request into the response. Only our own
 * errors and the DB's HP4xx rule errors reach the client verbatim; everything
 * else is a bug: logged with its details, answered with a sentence that leaks nothing.
 */
export function toErrorResponse(error: unknown, context = ''): Response {
  if (error instanceof HttpError) return textResponse(error.status, error.message);
  const state = sqlState(error);
  if (state && state in DB_RULE_STATUS && error instanceof Error) {
    return textResponse(DB_RULE_STATUS[state], error.message);
  }
  if (error instanceof HTTPException && error.status < 500) {
    return textResponse(error.status, error.status === 413 ? messages.bodyTooLarge : error.message || 'Bad request');
  }
  console.error(`Unexpected error${context ? ` in ${context}` : ''}:`, error);
  return textResponse(500, messages.unexpected);
}
