import { HTTPException } from 'hono/http-exception';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError, isUniqueViolation, toErrorResponse } from './errors.ts';

/** What postgres.js throws: an Error with the SQLSTATE in `code`. */
function pgError(code: string, message: string, extra: Record<string, unknown> = {}) {
  return Object.assign(new Error(message), { code, ...extra });
}

afterEach(() => vi.restoreAllMocks());

describe('toErrorResponse', () => {
  it('answers an HttpError with its status and sentence as text/plain', async () => {
    const res = toErrorResponse(new HttpError(409, 'That e-mail address is already used by another account'));
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('That e-mail address is already used by another account');
  });

  it.each([
    ['HP400', 400],
    ['HP401', 401],
    ['HP403', 403],
    ['HP404', 404],
    ['HP409', 409],
  ])('maps the rule error %s to %i with the database message', async (code, status) => {
    const res = toErrorResponse(pgError(code, 'Only the host can lock a date'));
    expect(res.status).toBe(status);
    expect(await res.text()).toBe('Only the host can lock a date');
  });

  it('treats any other database error as a logged 500 that leaks nothing', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = toErrorResponse(pgError('23505', 'duplicate key value violates unique constraint "users_email_key"'));
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('Something went wrong on our side');
    expect(log).toHaveBeenCalledOnce();
  });

  it('treats unknown throwables as a logged 500', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const thrown of [new TypeError('x is undefined'), 'a string', null, { code: 'HP404' }]) {
      const res = toErrorResponse(thrown);
      expect(res.status).toBe(500);
      expect(await res.text()).toBe('Something went wrong on our side');
    }
    expect(log).toHaveBeenCalledTimes(4);
  });

  it("maps Hono's HTTPException 413 to our sentence", async () => {
    const res = toErrorResponse(new HTTPException(413));
    expect(res.status).toBe(413);
    expect(await res.text()).toBe('Request body is too large');
  });
});

describe('isUniqueViolation', () => {
  it('matches SQLSTATE 23505, optionally by constraint', () => {
    const error = pgError('23505', 'duplicate', { constraint_name: 'users_email_key' });
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'users_email_key')).toBe(true);
    expect(isUniqueViolation(error, 'other_key')).toBe(false);
    expect(isUniqueViolation(pgError('23514', 'check'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});
