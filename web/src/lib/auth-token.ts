// The only place that knows where the token lives (spec §3: localStorage `authToken`).
const AUTH_TOKEN_KEY = 'authToken';

export function getAuthToken(): string | null {
  return localStorage.getItem(AUTH_TOKEN_KEY);
}

export function setAuthToken(token: string): void {
  localStorage.setItem(AUTH_TOKEN_KEY, token);
}

export function removeAuthToken(): void {
  localStorage.removeItem(AUTH_TOKEN_KEY);
}

/**
 * The session the stored token names (its `sid` claim), read without
 * verifying (the server does): a member's push subscription is that
 * session's (docs/notifications.md "Web Push"). Null without a readable token.
 */
export function storedSessionId(): string | null {
  try {
    const payload = getAuthToken()?.split('.')[1];
    if (!payload) return null;
    const claims: unknown = JSON.parse(atob(payload.replaceAll('-', '+').replaceAll('_', '/')));
    return claims && typeof claims === 'object' && 'sid' in claims && typeof claims.sid === 'string' ? claims.sid : null;
  } catch {
    return null;
  }
}
