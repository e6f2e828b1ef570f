// The one-click unsubscribe link of a notification e-mail (RFC 8058): names a
// member and a plan, and is its own credential. 48 bytes, base64url: the
// member's and the plan's ids and the first 16 bytes of an HMAC-SHA-256 over
// them with a key derived from JWT_SECRET. Nothing is stored: only this
// server can make a valid one, and a forged or altered one fails the HMAC.
import { fromBase64url, sameBytes, toBase64url } from './bytes.ts';
import { jwtSecret } from './env.ts';
import { purposeKey } from './purpose-key.ts';

const MAC_BYTES = 16;

/** HMAC key for unsubscribe links only (a different purpose than the tokens' signatures). */
const macKey = () => purposeKey('hangplan/unsubscribe-link/v1', jwtSecret());

function uuidBytes(uuid: string): Uint8Array {
  const hex = uuid.replaceAll('-', '').toLowerCase();
  return Uint8Array.from(hex.match(/../g)!.map((pair) => Number.parseInt(pair, 16)));
}

function uuidOf(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function mac(ids: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await macKey(), ids as Uint8Array<ArrayBuffer>)).slice(0, MAC_BYTES);
}

/** The link's token for a member and a plan. */
export async function unsubscribeToken(userId: string, planId: string): Promise<string> {
  const ids = new Uint8Array(32);
  ids.set(uuidBytes(userId), 0);
  ids.set(uuidBytes(planId), 16);
  const token = new Uint8Array(32 + MAC_BYTES);
  token.set(ids, 0);
  token.set(await mac(ids), 32);
  return toBase64url(token);
}

/** The member and plan a token names, or null when it is malformed or forged. */
export async function readUnsubscribeToken(token: string): Promise<{ userId: string; planId: string } | null> {
  if (!/^[A-Za-z0-9_-]{64}$/.test(token)) return null;
  const bytes = fromBase64url(token);
  const ids = bytes.slice(0, 32);
  if (!sameBytes(await mac(ids), bytes.slice(32))) return null;
  return { userId: uuidOf(ids.slice(0, 16)), planId: uuidOf(ids.slice(16, 32)) };
}
