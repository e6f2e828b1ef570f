// The guest's two localStorage items (spec §3: a guest session and the guest
// votes; the third item is `authToken`, see auth-token.ts). One session per
// device: joining another plan as a guest replaces it. Components read them
// through useGuestSession()/useGuestVotes(), which re-render on every change,
// also from another tab.
//
// The session also keeps this device's guest secret (docs/auth-and-guests.md
// "Guests"), which lib/api.ts sends as the X-Guest-Secret header. A
// session stored before secrets existed, or one whose secret the server no
// longer accepts, has none: the visitor then confirms the name again
// ("Is this you?") and gets a new one.
import { useSyncExternalStore } from 'react';

const GUEST_SESSION_KEY = 'guestSession';
const GUEST_VOTES_KEY = 'guestVotes';
/**
 * The plan and secret of a guest the host removed from that plan
 * (docs/decisions/0083-removal-holds.md): this device still presents the
 * secret when it joins that plan again, so the server knows it.
 */
const GUEST_REMOVED_KEY = 'guestRemoved';

export interface GuestSession {
  id: string;
  name: string;
  planId: string;
  /** This device's secret for the guest; absent when it must confirm the name again. */
  secret?: string;
  /** The last "continued on another device" time this device told its guest about (continued-notice.ts). */
  continuedSeenAt?: string;
  /**
   * The plan's link as this device last knew it: when the host resets it,
   * the old /l/{slug} pages find the plan again through the guest's own
   * session (features/guests/moved-link.ts).
   */
  slug?: string;
}

interface GuestVotes {
  planIdeaIds: string[];
  timeSlotIds: string[];
}

const EMPTY_VOTES: GuestVotes = Object.freeze({ planIdeaIds: [], timeSlotIds: [] }) as GuestVotes;
const listeners = new Set<() => void>();

function read(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null; // unreadable or corrupt: treat as absent
  }
}

function write(key: string, value: unknown): void {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
  cache.clear();
  for (const listener of listeners) listener();
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const unique = (ids: string[]) => [...new Set(ids)];

// Snapshots must be referentially stable between changes for useSyncExternalStore.
const cache = new Map<string, unknown>();

export function getGuestSession(): GuestSession | null {
  if (!cache.has(GUEST_SESSION_KEY)) {
    const v = read(GUEST_SESSION_KEY) as Partial<GuestSession> | null;
    const ok = v && typeof v.id === 'string' && typeof v.name === 'string' && typeof v.planId === 'string';
    const secret = ok && typeof v.secret === 'string' && v.secret ? v.secret : undefined;
    const seen = ok && typeof v.continuedSeenAt === 'string' ? v.continuedSeenAt : undefined;
    const slug = ok && typeof v.slug === 'string' && v.slug ? v.slug : undefined;
    cache.set(
      GUEST_SESSION_KEY,
      ok
        ? { id: v.id, name: v.name, planId: v.planId, ...(secret ? { secret } : {}), ...(seen ? { continuedSeenAt: seen } : {}), ...(slug ? { slug } : {}) }
        : null,
    );
  }
  return cache.get(GUEST_SESSION_KEY) as GuestSession | null;
}

/** The stored session when it belongs to `planId`, else null. */
export function getGuestSessionFor(planId: string | undefined): GuestSession | null {
  const session = getGuestSession();
  return session && planId && session.planId === planId ? session : null;
}

export function setGuestSession(session: GuestSession): void {
  const previous = getGuestSession();
  // Let in again (the host allowed it back): no longer removed from that plan.
  if (getRemovedGuest()?.planId === session.planId) write(GUEST_REMOVED_KEY, null);
  // Votes mirror one guest's choices; a different guest starts from none.
  if (previous && previous.id !== session.id) write(GUEST_VOTES_KEY, null);
  const secret = session.secret ? { secret: session.secret } : {};
  const seen = session.continuedSeenAt ? { continuedSeenAt: session.continuedSeenAt } : {};
  const slug = session.slug ? { slug: session.slug } : {};
  write(GUEST_SESSION_KEY, { id: session.id, name: session.name, planId: session.planId, ...secret, ...seen, ...slug });
}

/** Notes in the stored session of `guestId` the plan's link as it is now (the host may have reset it). */
export function markGuestPlanLink(guestId: string, slug: string): void {
  const session = getGuestSession();
  if (session?.id === guestId && session.slug !== slug) write(GUEST_SESSION_KEY, { ...session, slug });
}

/** Notes in the stored session of `guestId` that its guest was told about the restore of `at`. */
export function markContinuedSeen(guestId: string, at: string): void {
  const session = getGuestSession();
  if (session?.id === guestId) write(GUEST_SESSION_KEY, { ...session, continuedSeenAt: at });
}

/** The secret of the stored guest session, if it has one. */
export function getGuestSecret(): string | null {
  return getGuestSession()?.secret ?? null;
}

/**
 * The server refused this device's secret (or there was none): keep who the
 * guest was, drop the secret, so the plan's pages send the visitor through
 * "Is this you?" for that name, which gets a new one.
 */
export function forgetGuestSecret(): void {
  const session = getGuestSession();
  if (session?.secret) {
    const slug = session.slug ? { slug: session.slug } : {};
    write(GUEST_SESSION_KEY, { id: session.id, name: session.name, planId: session.planId, ...slug });
  }
}

export function getGuestVotes(): GuestVotes {
  if (!cache.has(GUEST_VOTES_KEY)) {
    const v = read(GUEST_VOTES_KEY) as Partial<GuestVotes> | null;
    cache.set(
      GUEST_VOTES_KEY,
      v && isStringArray(v.planIdeaIds) && isStringArray(v.timeSlotIds)
        ? { planIdeaIds: unique(v.planIdeaIds), timeSlotIds: unique(v.timeSlotIds) }
        : EMPTY_VOTES,
    );
  }
  return cache.get(GUEST_VOTES_KEY) as GuestVotes;
}

export function setGuestVotes(votes: GuestVotes): void {
  write(GUEST_VOTES_KEY, { planIdeaIds: unique(votes.planIdeaIds), timeSlotIds: unique(votes.timeSlotIds) });
}

function toggle(ids: string[], id: string): string[] {
  return ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
}

/** Spec §4: the local record is removed if it existed, else added. */
export function toggleGuestIdeaVote(ideaId: string): void {
  const votes = getGuestVotes();
  setGuestVotes({ ...votes, planIdeaIds: toggle(votes.planIdeaIds, ideaId) });
}

export function toggleGuestTimeSlotVote(timeSlotId: string): void {
  const votes = getGuestVotes();
  setGuestVotes({ ...votes, timeSlotIds: toggle(votes.timeSlotIds, timeSlotId) });
}

/** After a successful transfer to an account, or when the guest is gone. */
export function clearGuest(): void {
  write(GUEST_SESSION_KEY, null);
  write(GUEST_VOTES_KEY, null);
}

interface RemovedGuest {
  planId: string;
  secret: string;
}

function getRemovedGuest(): RemovedGuest | null {
  if (!cache.has(GUEST_REMOVED_KEY)) {
    const v = read(GUEST_REMOVED_KEY) as Partial<RemovedGuest> | null;
    cache.set(GUEST_REMOVED_KEY, v && typeof v.planId === 'string' && typeof v.secret === 'string' ? { planId: v.planId, secret: v.secret } : null);
  }
  return cache.get(GUEST_REMOVED_KEY) as RemovedGuest | null;
}

/**
 * The host removed the stored guest: forget it as clearGuest() does, but
 * remember its plan and its secret, which this device sends when it joins
 * that plan again (the server then says it was removed).
 */
export function markGuestRemoved(): void {
  const session = getGuestSession();
  if (session?.secret) write(GUEST_REMOVED_KEY, { planId: session.planId, secret: session.secret });
  clearGuest();
}

/** The secret of the guest this device was when the host removed it from `planId`, if it was. */
export function getRemovedGuestSecret(planId: string): string | null {
  const removed = getRemovedGuest();
  return removed?.planId === planId ? removed.secret : null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === GUEST_SESSION_KEY || event.key === GUEST_VOTES_KEY || event.key === GUEST_REMOVED_KEY) {
      cache.clear();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

// Rendered ahead of time (the static shells, app/shells.tsx), no device and so no stored guest.
const noSession = () => null;
const noVotes = () => EMPTY_VOTES;

export function useGuestSession(): GuestSession | null {
  return useSyncExternalStore(subscribe, getGuestSession, noSession);
}

export function useGuestVotes(): GuestVotes {
  return useSyncExternalStore(subscribe, getGuestVotes, noVotes);
}

/** Whether the host removed this device's guest from `planId` (re-renders on every change). */
export function useRemovedFrom(planId: string): boolean {
  const removed = useSyncExternalStore(subscribe, getRemovedGuest, () => null);
  return removed?.planId === planId;
}
