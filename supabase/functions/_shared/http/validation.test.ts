import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sendOtpBody, updateProfileBody, verifyOtpBody } from '../contract/auth-requests.ts';
import { setLocationBody } from '../contract/dates-requests.ts';
import { checkGuestBody, createGuestSessionBody } from '../contract/guests-requests.ts';
import { createCommentBody, createIdeaBody } from '../contract/ideas-requests.ts';
import { createInterestBody } from '../contract/interests-requests.ts';
import { createPlanBody } from '../contract/plans-requests.ts';
import { rejectionOf } from './validation-test-helpers.ts';
import { text, uuid } from '../contract/fields.ts';
import { firstIssueMessage, validate } from './validation.ts';

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
    expect(rejectionOf(sendOtpBody, body)).toBe(message);
  });

  it.each([[null], [[]], ['a@b.co'], [42], [true]])('rejects the non-object body %j', (body) => {
    expect(rejectionOf(sendOtpBody, body)).toBe('Request body must be a JSON object');
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
    expect(rejectionOf(verifyOtpBody, body)).toBe(message);
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
    expect(rejectionOf(updateProfileBody, body)).toBe(message);
  });

  it('counts 80 characters after trimming', () => {
    expect(validate(updateProfileBody, { firstName: ` ${'x'.repeat(80)} ` })).toEqual({ firstName: 'x'.repeat(80) });
  });
});

describe('field helpers for later resources', () => {
  it('text() names the field and the limit', () => {
    const title = z.object({ title: text('Title', { max: 120 }) });
    expect(rejectionOf(title, {})).toBe('Title is required');
    expect(rejectionOf(title, { title: '   ' })).toBe('Title must not be empty');
    expect(rejectionOf(title, { title: 'x'.repeat(121) })).toBe('Title must be at most 120 characters');
    expect(rejectionOf(title, { title: 5 })).toBe('Title must be text');
  });

  it('uuid() says the id is not valid', () => {
    expect(rejectionOf(z.object({ guestId: uuid('Guest id') }), { guestId: 'abc' })).toBe('Guest id must be a valid id');
  });

  it('firstIssueMessage never returns a zod default text', () => {
    const result = z.object({ n: z.number() }).safeParse({ n: 'x' });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstIssueMessage(result.error)).toBe('n is invalid');
  });
});

describe('text hygiene in every text field of every contract', () => {
  const GUEST = '0b6f2a4e-8c1d-4e5f-9a7b-3c2d1e0f9a8b';
  // [schema, a valid body, the text field, its label, multi-line?]
  const fields: Array<[string, z.ZodType, Record<string, unknown>, string, string, boolean]> = [
    ['plan title', createPlanBody, {}, 'title', 'Title', false],
    ['idea', createIdeaBody, { guestId: GUEST }, 'text', 'Idea text', true],
    ['comment', createCommentBody, { guestId: GUEST }, 'text', 'Comment text', true],
    ['guest name', createGuestSessionBody, { planId: GUEST }, 'name', 'Name', false],
    ['check-guest name', checkGuestBody, {}, 'name', 'Name', false],
    ['location', setLocationBody, {}, 'location', 'Location', false],
    ['first name', updateProfileBody, {}, 'firstName', 'First name', false],
    ['last name', updateProfileBody, {}, 'lastName', 'Last name', false],
    ['interest', createInterestBody, {}, 'freeFormText', 'Interest', false],
  ];

  it.each(fields)('%s: NUL and other control characters are a 400 naming the field', (_, schema, base, field, label, multiline) => {
    // (U+2028 is a line break: \n in a multi-line field.)
    for (const ch of ['\u0000', '\u0007', '\u001B', '\u007F', '\u0085', '\t', ...(multiline ? [] : ['\u2028'])]) {
      expect(rejectionOf(schema, { ...base, [field]: `Bowl${ch}ing` })).toBe(`${label} must not contain control characters`);
    }
    expect(rejectionOf(schema, { ...base, [field]: 'Bowl\uD800ing' })).toBe(`${label} must be valid text`);
  });

  it.each(fields)('%s: \\n only where the field is multi-line', (_, schema, base, field, label, multiline) => {
    if (multiline) {
      expect((validate(schema, { ...base, [field]: 'one\r\ntwo' }) as Record<string, unknown>)[field]).toBe('one\ntwo');
    } else {
      expect(rejectionOf(schema, { ...base, [field]: 'one\ntwo' })).toBe(`${label} must not contain control characters`);
      expect(rejectionOf(schema, { ...base, [field]: 'one\rtwo' })).toBe(`${label} must not contain control characters`);
    }
  });

  it.each(fields)('%s: NFC, bidi overrides and zero-width spaces removed', (_, schema, base, field) => {
    expect((validate(schema, { ...base, [field]: '\u202ECafe\u0301\u200B' }) as Record<string, unknown>)[field]).toBe('Caf\u00e9');
  });

  it('names: look-alikes become the same name', () => {
    const clean = (name: string) => validate(createGuestSessionBody, { name, planId: GUEST }).name;
    for (const lookalike of ['Sam\u200B', 'S\u200Dam', '\u2066Sam\u2069', 'Sam\uFEFF', 'Sa\u200Em', 'Sam\u200C']) {
      expect(clean(lookalike)).toBe('Sam');
    }
    expect(clean('Sam \u00A0 Lee')).toBe('Sam Lee');
    expect(rejectionOf(createGuestSessionBody, { name: '\u200B\u200B', planId: GUEST })).toBe('Name must not be empty');
    expect(validate(checkGuestBody, { name: ' S\u200Bam ' })).toEqual({ name: 'Sam' });
  });

  it('lengths are measured after cleaning', () => {
    const title = `${'x'.repeat(120)}${'\u200B'.repeat(10)}`;
    expect(validate(createPlanBody, { title }).title).toHaveLength(120);
    expect(rejectionOf(createPlanBody, { title: '\u200B' })).toBe('Title is required');
  });
});
