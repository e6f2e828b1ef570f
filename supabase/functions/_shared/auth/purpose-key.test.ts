import { describe, expect, it } from 'vitest';
import { purposeKey } from './purpose-key.ts';

const SECRET = 'a-jwt-secret-that-is-long-enough-0123456789';
const sign = async (key: Promise<CryptoKey>, text: string) =>
  Array.from(new Uint8Array(await crypto.subtle.sign('HMAC', await key, new TextEncoder().encode(text))));

describe('purposeKey', () => {
  it('is HMAC(secret, label) as a key: one per label and secret, kept while the secret stays', async () => {
    const a = purposeKey('hangplan/a/v1', SECRET);
    expect(purposeKey('hangplan/a/v1', SECRET)).toBe(a);
    const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const raw = await crypto.subtle.sign('HMAC', base, new TextEncoder().encode('hangplan/a/v1'));
    const expected = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    expect(await sign(a, 'x')).toEqual(await sign(expected, 'x'));
    expect(await sign(purposeKey('hangplan/b/v1', SECRET), 'x')).not.toEqual(await sign(a, 'x'));
    const other = purposeKey('hangplan/a/v1', `${SECRET}-rotated`);
    expect(other).not.toBe(a);
    expect(await sign(other, 'x')).not.toEqual(await sign(a, 'x'));
  });
});
