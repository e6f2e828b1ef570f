// The browser's sign-in key (docs/auth-and-guests.md "Sign-in codes"): 32
// random bytes made once and kept in localStorage `signInDevice`, sent with
// send-otp and verify-otp. A code belongs to the key that asked for it, so
// nobody else's guesses reach it; once this browser has signed in, its codes
// come from a budget of the account's own, which strangers cannot spend. It
// is not a credential: alone it signs no one in, so signing out keeps it
// (the browser stays one the account knows until "Sign out everywhere").
import { SECRET_TOKEN_PATTERN } from '../../../supabase/functions/_shared/contract/fields';
import { toBase64url } from './base64url';

const STORAGE_KEY = 'signInDevice';
/** When storage is refused (some private modes), one key for this page's life. */
let pageKey: string | undefined;

export function signInDevice(): string {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage refused: the page's own key below.
  }
  if (stored && SECRET_TOKEN_PATTERN.test(stored)) return stored;
  const key = pageKey ?? toBase64url(crypto.getRandomValues(new Uint8Array(32)));
  try {
    localStorage.setItem(STORAGE_KEY, key);
  } catch {
    pageKey = key;
  }
  return key;
}
