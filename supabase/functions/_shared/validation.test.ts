import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sendOtpBody, updateProfileBody, verifyOtpBody } from './contract/auth.ts';
import { HttpError } from './errors.ts';
import { firstIssueMessage, text, uuid, validate } from './validation.ts';

function messageOf(schema: z.ZodType, value: unknown): string {
  try {
    validate(schema, value);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    return (error as HttpError).message;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
}

describe('e-mail', () => {
  it('normalises (trim + lower-case)', () => {
    expect(validate(sendOtpBody, { email: '  Ann.Lee@Example.COM ' })).toEqual({ email: 'ann.lee@example.com' });
  });

  it.each([
    [{}, 'Email is required'],
    [{ email: 'ann' }, 'Email must be a valid e-mail address'],
    [{ email: 'ann@' }, 'Email must be a valid e-mail address'],
    [{ email: 'a b@example.com' }, 'Email must be a valid e-mail address'],
    [{ email: '' }, 'Email must be a valid e-mail address'],
    [{ email: 42 }, 'Email must be a valid e-mail address'],
    [{ email: null }, 'Email must be a valid e-mail address'],
    [{ email: ['a@b.co'] }, 'Email must be a valid e-mail address'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'Email must be a valid e-mail address'],
  ])('rejects %j with "%s"', (body, message) => {
    expect(messageOf(sendOtpBody, body)).toBe(message);
  });

  it.each([[null], [[]], ['a@b.co'], [42], [true]])('rejects the non-object body %j', (body) => {
    expect(messageOf(sendOtpBody, body)).toBe('Request body must be a JSON object');
  });

  it('drops unknown keys', () => {
    expect(validate(sendOtpBody, { email: 'a@b.co', role: 'service_role' })).toEqual({ email: 'a@b.co' });
  });
});

describe('code', () => {
  it('accepts six digits, keeping leading zeros', () => {
    expect(validate(verifyOtpBody, { email: 'a@b.co', code: ' 012345 ' })).toEqual({ email: 'a@b.co', code: '012345' });
  });

  it.each([
    [{ email: 'a@b.co' }, 'Code is required'],
    [{ email: 'a@b.co', code: '12345' }, 'Code must be 6 digits'],
    [{ email: 'a@b.co', code: '1234567' }, 'Code must be 6 digits'],
    [{ email: 'a@b.co', code: '12a456' }, 'Code must be 6 digits'],
    [{ email: 'a@b.co', code: 123456 }, 'Code must be 6 digits'],
    [{ code: '123456' }, 'Email is required'],
  ])('rejects %j with "%s"', (body, message) => {
    expect(messageOf(verifyOtpBody, body)).toBe(message);
  });
});

describe('profile', () => {
  it('trims names, turns blanks into null, and leaves absent fields out', () => {
    expect(validate(updateProfileBody, { firstName: '  Ann ', lastName: '   ', email: ' ANN@b.co' })).toEqual({
      firstName: 'Ann',
      lastName: null,
      email: 'ann@b.co',
    });
    expect(validate(updateProfileBody, { lastName: null })).toEqual({ lastName: null });
    expect(validate(updateProfileBody, {})).toEqual({});
  });

  it.each([
    [{ firstName: 'x'.repeat(81) }, 'First name must be at most 80 characters'],
    [{ lastName: 'x'.repeat(81) }, 'Last name must be at most 80 characters'],
    [{ firstName: 7 }, 'First name must be text'],
    [{ lastName: { a: 1 } }, 'Last name must be text'],
    [{ email: 'not-an-email' }, 'Email must be a valid e-mail address'],
    [{ email: null }, 'Email must be a valid e-mail address'],
  ])('rejects %j with "%s"', (body, message) => {
    expect(messageOf(updateProfileBody, body)).toBe(message);
  });

  it('counts 80 characters after trimming', () => {
    expect(validate(updateProfileBody, { firstName: ` ${'x'.repeat(80)} ` })).toEqual({ firstName: 'x'.repeat(80) });
  });
});

describe('field helpers for later resources', () => {
  it('text() names the field and the limit', () => {
    const title = z.object({ title: text('Title', { max: 120 }) });
    expect(messageOf(title, {})).toBe('Title is required');
    expect(messageOf(title, { title: '   ' })).toBe('Title must not be empty');
    expect(messageOf(title, { title: 'x'.repeat(121) })).toBe('Title must be at most 120 characters');
    expect(messageOf(title, { title: 5 })).toBe('Title must be text');
  });

  it('uuid() says the id is not valid', () => {
    expect(messageOf(z.object({ guestId: uuid('Guest id') }), { guestId: 'abc' })).toBe('Guest id must be a valid id');
  });

  it('firstIssueMessage never returns a zod default text', () => {
    const result = z.object({ n: z.number() }).safeParse({ n: 'x' });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstIssueMessage(result.error)).toBe('n is invalid');
  });
});
