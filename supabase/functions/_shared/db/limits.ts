// Abuse limits (docs/security-and-limits.md "Abuse limits"): the numbers, in one place,
// and the one way a route opts in. The counting itself is in the database
// (private.enforce_rate_limits, 20261126090016_limits.sql), so a limit
// holds across every instance of the function.
//
// A route names what it limits and for whom, with its request:
//
//   withRequest(identity, (tx) => addIdea(tx), { limits: [{ limit: 'idea', key: participantKey(userId, guestId) }] })
//
// The hits are counted by the request's claims statement (_shared/db/client.ts),
// right after the gate: no statement and no round trip of their own. Over a
// limit the database raises HP429 and the request rolls back: 429, `Retry-After`, and
// "Too many ideas in a short time, please try again in a minute"
// (_shared/http/errors.ts). Caps per plan (guests, ideas, comments, date slots) are
// not here: they are rows, not rates, and live in the database
// (private.plan_cap; 409).
//
// The numbers can be changed without a deploy of code through RATE_LIMITS,
// e.g. `RATE_LIMITS="otp-ip=60/1h,vote=300/60"` (seconds, or a number with s,
// m, h or d): the tests run a second instance with tiny limits, and the
// shared test and e2e servers raise the per-network ones (every request there
// comes from 127.0.0.1).
import { readEnv } from '../config/env.ts';
import { REMIND_WINDOW_SECONDS } from '../contract/notifications.ts';

interface RateLimit {
  /** Most hits per window. */
  max: number;
  windowSeconds: number;
  /** The sentence's start; the API adds ", please try again in N minutes". */
  message: string;
}

/** Every limit, with numbers a real group never meets. */
export const DEFAULT_LIMITS = {
  /*
   * Codes mailed: no limit is shared by everyone (a stranger could fill it
   * for all), only the source of a request (its network, its wider site) and
   * the address a code goes to; a request that is refused or fails counts
   * nothing (docs/security-and-limits.md "Sign-in codes"; decision 0076).
   */
  /** Codes mailed (send-otp, and an e-mail change's code) per client network (an IPv4 address, an IPv6 /64). */
  'otp-ip': { max: 30, windowSeconds: 3600, message: 'Too many codes were requested from your network' },
  /** Codes mailed per client site: an IPv6 /56 (one customer's usual allocation: 256 /64s). IPv4 has none. */
  'otp-site': { max: 120, windowSeconds: 3600, message: 'Too many codes were requested from your network' },
  /**
   * Codes an address did not ask for, per address: sign-in codes asked from a
   * device that never signed in to its account, and e-mail-change codes that
   * name it. The account's own devices (app.sign_in_devices) have budgets of
   * their own, so a stranger who spends this one does not stop the owner.
   */
  'otp-address': { max: 5, windowSeconds: 3600, message: 'Too many codes requested' },
  /**
   * Wrong codes (sign-in and e-mail change) per client network: over it, the
   * network is refused for every address until the window ends. Counted only
   * when a code is wrong, checked before any code is compared. A code takes
   * guesses only from the device that asked for it, and dies after 5.
   */
  'otp-guess-ip': { max: 50, windowSeconds: 3600, message: 'Too many wrong codes were tried from your network' },
  /** Wrong codes per client site (an IPv6 /56), likewise. */
  'otp-guess-site': { max: 200, windowSeconds: 3600, message: 'Too many wrong codes were tried from your network' },
  /** Wrong e-mail-change codes per account: only its own sessions can try them. */
  'otp-guess-account': { max: 30, windowSeconds: 86_400, message: 'Too many wrong codes were tried for this account' },
  /** New guests (POST /api/guest-session) per client network, any plan. */
  'guest-ip': { max: 60, windowSeconds: 3600, message: 'Too many people joined from your network' },
  /**
   * Looking a guest up by name (check-guest) and continuing as one ("Yes,
   * that's me": a new device secret), per client network: names are the
   * restore's only proof (spec), so guessing them is slowed down. Counted
   * whether or not the name exists.
   */
  'guest-name': { max: 60, windowSeconds: 3600, message: 'Too many name checks from your network' },
  /** New ideas per participant (user or guest). */
  idea: { max: 10, windowSeconds: 60, message: 'Too many ideas in a short time' },
  /** New comments per participant. */
  comment: { max: 20, windowSeconds: 60, message: 'Too many comments in a short time' },
  /** Votes and unvotes per participant: ideas, dates and time slots together. */
  vote: { max: 120, windowSeconds: 60, message: 'Too many votes in a short time' },
  /** New plans per user. */
  plan: { max: 50, windowSeconds: 86_400, message: 'Too many new plans today' },
  /**
   * Reminders, the host's "Remind them" and the deadline's automatic one
   * together: at most one per plan per window (max is not used;
   * app.remind_unanswered and private.run_deadlines keep the time in
   * plans.reminded_at).
   */
  remind: { max: 1, windowSeconds: REMIND_WINDOW_SECONDS, message: 'Everyone who has not answered was reminded less than 12 hours ago' },
  /**
   * The personal calendar feed, per feed (its member): builds of its text.
   * An unchanged poll (304, or the text the instance kept) counts nothing,
   * and the text is built again only after a plan in it changed, so a member
   * subscribed on a few devices and services stays far below this
   * (private.calendar_feed counts it).
   */
  'calendar-feed': { max: 120, windowSeconds: 3600, message: 'This calendar was fetched too often' },
  /**
   * Feed links that find no feed (wrong, or reset), per client network. Only
   * misses count, and a full network is refused only for misses: calendar
   * services poll for many people from few addresses, and one person's old
   * links must not stop everyone else's feed.
   */
  'calendar-feed-miss': { max: 60, windowSeconds: 3600, message: 'Too many calendar links that are not valid were tried from your network' },
} satisfies Record<string, RateLimit>;

/**
 * Notifications (docs/notifications.md): how many devices may ask for them,
 * how often a plan's news goes out, and how deliveries are retried. Passed to
 * the SQL that enforces them (the notifications domain).
 */
export const NOTIFICATION_LIMITS = {
  /** Push subscriptions per member, and per guest device: beyond it the oldest go. */
  subscriptionsPerIdentity: 10,
  /**
   * Push subscriptions of one guest's devices together (the one that joined
   * and those that continued by name): beyond it the oldest of the continued
   * devices go, so no one guest fills its plan's share.
   */
  subscriptionsPerGuest: 20,
  /** Push subscriptions of one plan's guests together: beyond it, 409. */
  subscriptionsPerPlan: 400,
  /**
   * The notice budget of a plan's decisions (the place, the idea, the date,
   * the time, unlocking; docs/notifications.md "The notice budget"): at most
   * one notice per plan, so per person, per window; what changes within it
   * goes out as one notice when it ends, saying what is true then. A date
   * the host locked waits as long for its time. Nothing is refused for it.
   */
  noticeWindowSeconds: 600,
  /** At most one digest of new ideas and comments per plan per window... */
  digestWindowSeconds: 600,
  /** ...sent once the oldest news is this old (a burst goes out as one). */
  digestSettleSeconds: 60,
  /** The automatic reminder comes this long before a deadline. */
  deadlineReminderSeconds: 86_400,
  /**
   * Event reminders (docs/decisions/0102-event-reminders.md): the day-before
   * one from this long before a timed event's start...
   */
  eventDayReminderSeconds: 86_400,
  /** ...and the "in 2 hours" one from this long before it. */
  eventSoonReminderSeconds: 7_200,
  /** A claimed delivery is another instance's to take again after this. */
  leaseSeconds: 120,
  /** Deliveries taken per claim. */
  batch: 100,
  /** Retries wait first * 2^(attempt - 1) seconds, at most max, and stop after giveUp. */
  retryFirstSeconds: 30,
  retryMaxSeconds: 3600,
  retryGiveUpSeconds: 26 * 3600,
  /** How long a push service keeps a message for a phone that is off (TTL). */
  pushTtlSeconds: 86_400,
} as const;

export type LimitName = keyof typeof DEFAULT_LIMITS;

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * `name=max/window` entries, comma-separated. Malformed entries and unknown
 * names are logged and ignored (a typo must not take every write down).
 */
export function parseLimitOverrides(text: string | undefined): Partial<Record<LimitName, Pick<RateLimit, 'max' | 'windowSeconds'>>> {
  const overrides: Partial<Record<LimitName, Pick<RateLimit, 'max' | 'windowSeconds'>>> = {};
  for (const entry of (text ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const match = /^([a-z-]+)\s*=\s*(\d+)\s*\/\s*(\d+)\s*([smhd]?)$/i.exec(entry);
    const name = match?.[1].toLowerCase();
    if (!match || !name || !(name in DEFAULT_LIMITS)) {
      console.error(`RATE_LIMITS: ignoring "${entry}" (expected name=max/seconds with a known name)`);
      continue;
    }
    const max = Number(match[2]);
    const windowSeconds = Number(match[3]) * (UNITS[match[4].toLowerCase() || 's'] ?? 1);
    if (max < 1 || windowSeconds < 1) {
      console.error(`RATE_LIMITS: ignoring "${entry}" (max and window must be at least 1)`);
      continue;
    }
    overrides[name as LimitName] = { max, windowSeconds };
  }
  return overrides;
}

let cached: { text: string | undefined; limits: Record<LimitName, RateLimit> } | undefined;

/** The limits in force: the defaults with RATE_LIMITS applied. */
export function rateLimits(): Record<LimitName, RateLimit> {
  const text = readEnv('RATE_LIMITS');
  if (!cached || cached.text !== text) {
    const limits = { ...DEFAULT_LIMITS } as Record<LimitName, RateLimit>;
    for (const [name, override] of Object.entries(parseLimitOverrides(text))) {
      limits[name as LimitName] = { ...limits[name as LimitName], ...override };
    }
    cached = { text, limits };
  }
  return cached.limits;
}

/** One hit: which limit, and on whose behalf (an id, a network, 'all'). */
export interface LimitHit {
  limit: LimitName;
  key: string;
}

/** The key of a participant: the account when signed in, else the guest. */
export function participantKey(userId: string | null | undefined, guestId: string | null | undefined): string {
  return userId ? `u:${userId}` : `g:${guestId ?? 'none'}`;
}

/**
 * RATE_LIMIT_SCOPE: a prefix of every key, for deployments (or test servers)
 * that share one database but must not share counters. Empty by default.
 */
function scope(): string {
  const value = readEnv('RATE_LIMIT_SCOPE');
  return value ? `${value}/` : '';
}

/** One element of private.enforce_rate_limits' argument: `{key, max, window, message}`. */
export function limitEntry({ limit, key }: LimitHit, limits = rateLimits()): { key: string; max: number; window: number; message: string } {
  const { max, windowSeconds, message } = limits[limit];
  // Keys are at most 200 characters in the table; ours are far shorter.
  return { key: `${scope()}${limit}:${key}`.slice(0, 200), max, window: windowSeconds, message };
}

/** The argument of private.enforce_rate_limits. */
export function limitsJson(hits: LimitHit[], limits = rateLimits()): string {
  return JSON.stringify(hits.map((hit) => limitEntry(hit, limits)));
}
