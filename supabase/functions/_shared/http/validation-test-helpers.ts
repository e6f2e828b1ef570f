// For tests of request schemas: the 400 sentence a rejected value gets.
import { expect } from 'vitest';
import { HttpError } from './errors.ts';
import { validate } from './validation.ts';

/** The message of the 400 that `validate(schema, value)` throws; fails the test if it accepts. */
export function rejectionOf(schema: Parameters<typeof validate>[0], value: unknown): string {
  try {
    validate(schema, value);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    return (error as HttpError).message;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
}
