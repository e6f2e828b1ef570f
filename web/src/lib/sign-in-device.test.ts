import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInDevice } from './sign-in-device';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('signInDevice', () => {
  it('is made once, 32 random bytes as base64url, and kept', () => {
    const key = signInDevice();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(localStorage.getItem('signInDevice')).toBe(key);
    expect(signInDevice()).toBe(key);
    localStorage.clear();
    expect(signInDevice()).not.toBe(key);
  });

  it('replaces a stored value that is not a key', () => {
    localStorage.setItem('signInDevice', 'tampered');
    const key = signInDevice();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(localStorage.getItem('signInDevice')).toBe(key);
  });

  it('keeps one key for the page when storage is refused', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const key = signInDevice();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signInDevice()).toBe(key);
  });
});
