import { describe, expect, it } from 'vitest';
import { generateSignInCode, hashSignInCode } from './otp.ts';

const SECRET = 'unit-test-secret-that-is-long-enough-0123456789';

describe('generateSignInCode', () => {
  it('is always exactly six digits, leading zeros kept', () => {
    for (let i = 0; i < 2000; i++) expect(generateSignInCode()).toMatch(/^\d{6}$/);
    expect(generateSignInCode((a) => (a[0] = 42))).toBe('000042');
  });

  it('redraws values that would bias the modulo instead of using them', () => {
    const draws = [2 ** 32 - 1, 4_294_000_000, 1_234_567];
    const code = generateSignInCode((a) => (a[0] = draws.shift()!));
    expect(code).toBe('234567');
    expect(draws).toHaveLength(0);
  });

  it('spreads digits uniformly over every position', () => {
    const samples = 20_000;
    const counts = Array.from({ length: 6 }, () => new Array<number>(10).fill(0));
    for (let i = 0; i < samples; i++) {
      const code = generateSignInCode();
      for (let p = 0; p < 6; p++) counts[p][Number(code[p])]++;
    }
    // Chi-square with 9 degrees of freedom: 27.9 is the 0.1% critical value.
    for (const position of counts) {
      const expected = samples / 10;
      const chi2 = position.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
      expect(chi2).toBeLessThan(27.9);
    }
  });

  it('rarely repeats', () => {
    const codes = new Set(Array.from({ length: 1000 }, () => generateSignInCode()));
    expect(codes.size).toBeGreaterThan(990);
  });
});

describe('hashSignInCode', () => {
  it('is 64 lower-case hex characters and deterministic', async () => {
    const a = await hashSignInCode('ann@example.com', '123456', SECRET);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashSignInCode('ann@example.com', '123456', SECRET)).toBe(a);
  });

  it('depends on the e-mail, the code and the secret', async () => {
    const base = await hashSignInCode('ann@example.com', '123456', SECRET);
    expect(await hashSignInCode('bob@example.com', '123456', SECRET)).not.toBe(base);
    expect(await hashSignInCode('ann@example.com', '123457', SECRET)).not.toBe(base);
    expect(await hashSignInCode('ann@example.com', '123456', `${SECRET}x`)).not.toBe(base);
  });

  it('is a keyed hash, not a plain SHA-256 of the code', async () => {
    const plain = Buffer.from(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode('ann@example.com:123456')),
    ).toString('hex');
    expect(await hashSignInCode('ann@example.com', '123456', SECRET)).not.toBe(plain);
  });
});
