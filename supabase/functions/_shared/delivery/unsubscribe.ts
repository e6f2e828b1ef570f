// The one-click unsubscribe link of a notification e-mail (RFC 8058): names a
// member and a plan, and is its own credential for 90 days, and only while
// the account keeps the address it was mailed to
// (docs/decisions/0082-nothing-kept-too-long.md). 68 bytes, base64url (91
// characters):
//
//   the member's id (16) | the plan's id (16) | the day it was made (4: days
//   since 1970-01-01, big-endian) | MAC of those 36 bytes (16) | MAC of those
//   36 bytes and the address it was mailed to (16)
//
// each MAC the first 16 bytes of an HMAC-SHA-256 with a key of its own
// derived from JWT_SECRET. Nothing is stored: only this server can make a
// valid one. A forged or altered link fails the first MAC before anything is
// looked up; the second is checked against the account's address as it is
// now, so a link mailed to an address the account no longer uses opens
// nothing, like a link past its days (the member, signed in, still can).
import { fromBase64url, sameBytes, toBase64url } from '../http/bytes.ts';
import { jwtSecret } from '../config/env.ts';
import { purposeKey } from '../auth/purpose-key.ts';

/** A link works this many days after it was mailed. */
export const UNSUBSCRIBE_LINK_DAYS = 90;

const MAC_BYTES = 16;
const NAMED_BYTES = 36;
const TOKEN_BYTES = NAMED_BYTES + 2 * MAC_BYTES;
const DAY_MS = 86_400_000;
const TOKEN = /^[A-Za-z0-9_-]{91}$/;

const encoder = new TextEncoder();
/** HMAC keys for unsubscribe links only (purposes of their own, not the tokens' signatures). */
const linkKey = (secret: string) => purposeKey('hangplan/unsubscribe-link/v2', secret);
const addressKey = (secret: string) => purposeKey('hangplan/unsubscribe-address/v2', secret);

function uuidBytes(uuid: string): Uint8Array {
  const hex = uuid.replaceAll('-', '').toLowerCase();
  return Uint8Array.from(hex.match(/../g)!.map((pair) => Number.parseInt(pair, 16)));
}

function uuidOf(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function mac(key: Promise<CryptoKey>, data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await key, data as Uint8Array<ArrayBuffer>)).slice(0, MAC_BYTES);
}

/** The named bytes followed by the address, for the second MAC. */
function withAddress(named: Uint8Array, email: string): Uint8Array {
  const address = encoder.encode(email.trim().toLowerCase());
  const bytes = new Uint8Array(named.length + address.length);
  bytes.set(named, 0);
  bytes.set(address, named.length);
  return bytes;
}

interface TokenOptions {
  /** When the link is made (tests make old ones); now by default. */
  now?: number;
  /** JWT_SECRET by default. */
  secret?: string;
}

/** The link's token for a member and a plan, mailed to `email`. */
export async function unsubscribeToken(userId: string, planId: string, email: string, options: TokenOptions = {}): Promise<string> {
  const secret = options.secret ?? jwtSecret();
  const named = new Uint8Array(NAMED_BYTES);
  named.set(uuidBytes(userId), 0);
  named.set(uuidBytes(planId), 16);
  new DataView(named.buffer).setUint32(32, Math.floor((options.now ?? Date.now()) / DAY_MS));
  const token = new Uint8Array(TOKEN_BYTES);
  token.set(named, 0);
  token.set(await mac(linkKey(secret), named), NAMED_BYTES);
  token.set(await mac(addressKey(secret), withAddress(named, email)), NAMED_BYTES + MAC_BYTES);
  return toBase64url(token);
}

/** What a genuine link names. */
export interface UnsubscribeLink {
  userId: string;
  planId: string;
  /** Older than UNSUBSCRIBE_LINK_DAYS. */
  expired: boolean;
  /** Whether the link was mailed to this address (the account's now). */
  sentTo(email: string): Promise<boolean>;
}

/** The member and plan a token names, or null when it is malformed or forged. */
export async function readUnsubscribeToken(token: string, options: TokenOptions = {}): Promise<UnsubscribeLink | null> {
  if (!TOKEN.test(token)) return null;
  const secret = options.secret ?? jwtSecret();
  const bytes = fromBase64url(token);
  const named = bytes.slice(0, NAMED_BYTES);
  if (!sameBytes(await mac(linkKey(secret), named), bytes.slice(NAMED_BYTES, NAMED_BYTES + MAC_BYTES))) return null;
  const day = new DataView(named.buffer).getUint32(32);
  const today = Math.floor((options.now ?? Date.now()) / DAY_MS);
  return {
    userId: uuidOf(named.slice(0, 16)),
    planId: uuidOf(named.slice(16, 32)),
    expired: today - day > UNSUBSCRIBE_LINK_DAYS || day > today + 1,
    sentTo: async (email) => sameBytes(await mac(addressKey(secret), withAddress(named, email)), bytes.slice(NAMED_BYTES + MAC_BYTES)),
  };
}
