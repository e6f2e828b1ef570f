// One stored action: read back from its text, and sent as the one who made it
// (docs/offline.md "Offline votes and comments": "As whom").
import { GUEST_SECRET_HEADER } from '../../../../supabase/functions/_shared/contract/guest-secret';
import { IDEMPOTENCY_KEY_HEADER } from '../../../../supabase/functions/_shared/contract/idempotency';
import { getAuthToken } from '../auth-token';
import { fromBase64url } from '../base64url';
import { getGuestSession } from '../guest-storage';
import { isRecord } from '../../service-worker/background-sync';
import type { ActionIdentity, OfflineAction } from './types';

function isIdentity(value: unknown): value is ActionIdentity {
  if (!isRecord(value) || typeof value.name !== 'string') return false;
  if (value.kind === 'member') return typeof value.userId === 'string';
  return value.kind === 'guest' && typeof value.guestId === 'string' && typeof value.secret === 'string';
}

/**
 * Kinds an earlier build stored under another name, by the name they have
 * now. A phone may hold actions of the old build when the new one takes
 * over: they are read as the kind they are now, shown and sent as ever
 * (docs/offline.md "Offline votes and comments", decision 0094).
 */
const RENAMED_KINDS: ReadonlyMap<string, string> = new Map([
  ['idea-vote', 'vote-idea'],
  ['date-vote', 'vote-date'],
]);

/** A stored action, or null when the text is not one (corrupt, or written by another version). */
export function parseAction(raw: string | null): OfflineAction | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const strings = ['key', 'kind', 'planId', 'target', 'path', 'noun', 'failure'] as const;
  const numbers = ['at', 'seq', 'attempts', 'retryAt'] as const;
  if (!strings.every((name) => typeof value[name] === 'string')) return null;
  if (!numbers.every((name) => typeof value[name] === 'number')) return null;
  if (typeof value.waiting !== 'boolean' || !isIdentity(value.as)) return null;
  if (value.method !== undefined && value.method !== 'POST' && value.method !== 'PUT') return null;
  const action = value as unknown as OfflineAction;
  const renamed = RENAMED_KINDS.get(action.kind);
  return renamed ? { ...action, kind: renamed } : action;
}

/** The user id a session token names (its `sub`), or undefined when it cannot be read. */
export function tokenSubject(token: string): string | undefined {
  try {
    const payload: unknown = JSON.parse(new TextDecoder().decode(fromBase64url(token.split('.')[1]!)));
    return isRecord(payload) && typeof payload.sub === 'string' ? payload.sub.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The headers that send `action` as the one who made it, or null when this
 * device is no longer that person: a member's token is gone or names another
 * account, a guest's session here is gone or is another guest. A guest goes
 * by its secret and never by a token (a token would make it the member).
 */
export function credentialsFor(action: OfflineAction): Headers | null {
  const headers = new Headers({ [IDEMPOTENCY_KEY_HEADER]: action.key });
  if (action.body !== undefined) headers.set('Content-Type', 'application/json');
  const { as } = action;
  if (as.kind === 'member') {
    const token = getAuthToken();
    if (!token) return null;
    const subject = tokenSubject(token);
    // An unreadable token cannot act as anyone else (the server refuses it).
    if (subject !== undefined && subject !== as.userId.toLowerCase()) return null;
    headers.set('Authorization', `Bearer ${token}`);
    return headers;
  }
  const session = getGuestSession();
  if (session?.id !== as.guestId) return null;
  // The secret it was made with, unless this device confirmed the name again since.
  const secret = session.secret ?? as.secret;
  if (secret) headers.set(GUEST_SECRET_HEADER, secret);
  return headers;
}

/** The identity to make an action as: a plan's visitor, with this device's guest secret. */
export function actionIdentity(
  visitor: { kind: 'member'; userId: string; name: string } | { kind: 'guest'; guestId: string; name: string },
): ActionIdentity {
  if (visitor.kind === 'member') return { kind: 'member', userId: visitor.userId, name: visitor.name };
  const session = getGuestSession();
  const secret = session?.id === visitor.guestId ? (session.secret ?? '') : '';
  return { kind: 'guest', guestId: visitor.guestId, name: visitor.name, secret };
}

/** The body that sends `action`, as the page sends it and as it is handed to the worker. */
export const bodyOf = (action: OfflineAction) => (action.body === undefined ? null : JSON.stringify(action.body));

/** The method that sends `action`: POST unless it was made to PUT (an action stored before methods existed is a POST). */
export const methodOf = (action: Pick<OfflineAction, 'method'>) => action.method ?? 'POST';
