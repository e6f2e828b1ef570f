// HMAC keys for one purpose each, derived from JWT_SECRET: HMAC-SHA-256 of
// the purpose's label under JWT_SECRET, imported as an HMAC-SHA-256 key. A
// link signed for one purpose (an unsubscribe link, a calendar feed's
// secret) is worth nothing for another or as a token, and no other secret
// needs configuring. Each key is made once per instance and secret.

const encoder = new TextEncoder();
const keys = new Map<string, { secret: string; key: Promise<CryptoKey> }>();

/** The HMAC-SHA-256 key of `label` (e.g. 'hangplan/unsubscribe-link/v1') under `secret`. */
export function purposeKey(label: string, secret: string): Promise<CryptoKey> {
  const cached = keys.get(label);
  if (cached?.secret === secret) return cached.key;
  const key = (async () => {
    const base = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const derived = await crypto.subtle.sign('HMAC', base, encoder.encode(label));
    return await crypto.subtle.importKey('raw', derived, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  })();
  // A failure is not kept: the next call tries again.
  key.catch(() => keys.get(label)?.key === key && keys.delete(label));
  keys.set(label, { secret, key });
  return key;
}
