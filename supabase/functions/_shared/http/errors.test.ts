import { HTTPException } from 'hono/http-exception';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError, isUniqueViolation, toErrorResponse, tooManyRequests, waitPhrase } from './errors.ts';

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
    const res = toErrorResponse(pgError('42501', 'new row violates row-level security policy for table "ideas"'));
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('Something went wrong on our side');
    expect(log).toHaveBeenCalledOnce();
  });

  it('maps HP429 to 429 with Retry-After (the DETAIL) and one sentence', async () => {
    const res = toErrorResponse(pgError('HP429', 'Too many ideas in a short time', { detail: '42' }));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('42');
    expect(await res.text()).toBe('Too many ideas in a short time, please try again in 42 seconds');
    const hours = toErrorResponse(pgError('HP429', 'Too many new plans today', { detail: '7201' }));
    expect(hours.headers.get('retry-after')).toBe('7201');
    expect(await hours.text()).toBe('Too many new plans today, please try again in 3 hours');
  });

  it('answers an HttpError with its Retry-After', async () => {
    const res = toErrorResponse(tooManyRequests('Too many codes requested', 30));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await res.text()).toBe('Too many codes requested, please try again in 30 seconds');
  });

  it.each([
    ['23514', { constraint_name: 'plans_title_length' }, 400, 'Title must be 1 to 120 characters'],
    ['23514', { constraint_name: 'ideas_text_length' }, 400, 'Idea text must be 1 to 280 characters'],
    ['23514', { constraint_name: 'some_new_check' }, 400, 'A value sent is not allowed'],
    ['23505', { constraint_name: 'users_email_key' }, 409, 'That already exists'],
    ['23502', {}, 400, 'A required value is missing'],
    ['23503', {}, 409, 'Something this refers to was changed or removed at the same moment, please try again'],
    ['22021', {}, 400, 'Text must not contain NUL or other characters that cannot be stored'],
    ['22P05', {}, 400, 'Text must not contain NUL or other characters that cannot be stored'],
    ['22001', {}, 400, 'A value sent is not valid'],
    ['22P02', {}, 400, 'A value sent is not valid'],
    ['22008', {}, 400, 'A value sent is not valid'],
    ['54000', {}, 400, 'A value sent is not valid'],
    ['40P01', {}, 503, 'The server is busy, please try again'],
    ['40001', {}, 503, 'The server is busy, please try again'],
  ])('maps the constraint or data error %s (%j) to %i, never 500', async (code, extra, status, text) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = toErrorResponse(pgError(code, 'raw database text that must not leak', extra));
    expect(res.status).toBe(status);
    expect(await res.text()).toBe(text);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    if (status === 503) expect(res.headers.get('retry-after')).toBe('1');
    expect(warn).toHaveBeenCalledOnce();
    expect(error).not.toHaveBeenCalled();
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

describe('waitPhrase', () => {
  it.each([
    [0, 'a second'],
    [1, 'a second'],
    [29.2, '30 seconds'],
    [59, '59 seconds'],
    [60, 'a minute'],
    [61, '2 minutes'],
    [600, '10 minutes'],
    [3599, 'an hour'],
    [3600, 'an hour'],
    [3601, '2 hours'],
    [86_400, '24 hours'],
  ])('%d s reads "%s"', (seconds, phrase) => {
    expect(waitPhrase(seconds)).toBe(phrase);
  });
});
