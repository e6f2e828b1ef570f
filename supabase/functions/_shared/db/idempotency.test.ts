import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, isIdempotencyKey } from '../contract/idempotency.ts';
import { canonicalBody, canonicalJson, requestFingerprint } from './idempotency.ts';

describe('the Idempotency-Key header', () => {
  it('is named as docs/api.md says', () => {
    expect(IDEMPOTENCY_KEY_HEADER).toBe('Idempotency-Key');
    expect(IDEMPOTENT_REPLAYED_HEADER).toBe('Idempotent-Replayed');
  });

  it('takes 8 to 100 letters, digits, hyphens or underscores: a UUID, a nanoid', () => {
    for (const key of [crypto.randomUUID(), 'abcdefgh', 'A_b-C_d-', 'x'.repeat(100), 'V1StGXR8_Z5jdHi6B-myT']) {
      expect(isIdempotencyKey(key), key).toBe(true);
    }
    for (const key of ['', 'abcdefg', 'x'.repeat(101), 'abc defgh', 'abcdefgh\n', 'a.b.c.d.e', 'ключключключ', '{abcdefgh}', 'abcdefgh=']) {
      expect(isIdempotencyKey(key), JSON.stringify(key)).toBe(false);
    }
  });
});

describe('the request fingerprint', () => {
  it('canonical JSON sorts keys at every depth and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson('text "quoted"')).toBe('"text \\"quoted\\""');
    expect(canonicalJson({ a: undefined, b: true })).toBe('{"b":true}');
  });

  it('a body sent again with other spacing or key order is the same; an empty body is {}', () => {
    expect(canonicalBody('{"guestId":"g","text":"Hi"}')).toBe(canonicalBody('{ "text": "Hi",\n  "guestId": "g" }'));
    expect(canonicalBody('')).toBe('{}');
    expect(canonicalBody('  ')).toBe('{}');
    expect(canonicalBody('{}')).toBe('{}');
    expect(canonicalBody('{"not json"')).toBe('{"not json"');
  });

  it('differs by method, path and body, and is lower-case hex SHA-256', async () => {
    const base = await requestFingerprint('POST', '/api/ideas/1/vote', '{}');
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(await requestFingerprint('post', '/api/ideas/1/vote', '')).toBe(base);
    expect(await requestFingerprint('POST', '/api/ideas/2/vote', '{}')).not.toBe(base);
    expect(await requestFingerprint('DELETE', '/api/ideas/1/vote', '{}')).not.toBe(base);
    expect(await requestFingerprint('POST', '/api/ideas/1/vote', '{"guestId":"g"}')).not.toBe(base);
  });
});
