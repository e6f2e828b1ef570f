// Every query key of the app, in one low-level module (TkDodo's "Effective
// React Query Keys"): keys name WHAT is cached, never where it comes from
// (the URLs are in api-paths.ts). Everything about one plan sits under
// `planKeys.plan(id)`, so the live updates (lib/live) and a leave or delete
// can reach a plan's caches by prefix (TanStack's prefix matching of these
// factories' keys, never positions in a key). No query string, no encoding here.

export const planKeys = {
  all: ['plans'] as const,
  /** The signed-in user's plans (home). */
  list: () => [...planKeys.all, 'list'] as const,
  /** The prefix of everything about one plan. */
  plan: (id: string) => [...planKeys.all, id] as const,
  detail: (id: string) => [...planKeys.plan(id), 'detail'] as const,
  participants: (id: string) => [...planKeys.plan(id), 'participants'] as const,
  /** Who the host removed (the host's list). */
  removals: (id: string) => [...planKeys.plan(id), 'removals'] as const,
  /** The plan a public link names; outside `plan(id)`, since the id is not known before it loads. */
  bySlugs: () => [...planKeys.all, 'slug'] as const,
  bySlug: (slug: string) => [...planKeys.bySlugs(), slug] as const,
  /**
   * A write to one plan: live updates of the plan wait while one is pending
   * (`isMutating({ mutationKey: planKeys.plan(id) })`).
   */
  mutation: (id: string, name: string) => [...planKeys.plan(id), 'mutation', name] as const,
};

export const ideaKeys = {
  all: (planId: string) => [...planKeys.plan(planId), 'ideas'] as const,
  /** Every ideas list of a plan (any `guestId` view): the prefix to invalidate. */
  lists: (planId: string) => [...ideaKeys.all(planId), 'list'] as const,
  /** hasUserVoted is about the token's user, or about `guestId` without a token. */
  list: (planId: string, guestId: string | null) => [...ideaKeys.lists(planId), { guestId }] as const,
  suggestions: (planId: string) => [...ideaKeys.all(planId), 'suggestions'] as const,
  /** Every idea's comments: the prefix a change of unnamed ideas reaches. */
  allComments: (planId: string) => [...ideaKeys.all(planId), 'comments'] as const,
  comments: (planId: string, ideaId: string) => [...ideaKeys.allComments(planId), ideaId] as const,
  allVoters: (planId: string) => [...ideaKeys.all(planId), 'voters'] as const,
  voters: (planId: string, ideaId: string) => [...ideaKeys.allVoters(planId), ideaId] as const,
};

export const dateKeys = {
  all: (planId: string) => [...planKeys.plan(planId), 'dates'] as const,
  timeSlots: (planId: string) => [...dateKeys.all(planId), 'slots'] as const,
  /** Every visitor's own votes (any `guestId` view): the prefix to invalidate. */
  allMyVotes: (planId: string) => [...dateKeys.all(planId), 'my-votes'] as const,
  /** A member's votes go by the token; a guest's by its id. */
  myVotes: (planId: string, guestId: string | null | undefined) => [...dateKeys.allMyVotes(planId), { guestId: guestId ?? null }] as const,
  allVoters: (planId: string) => [...dateKeys.all(planId), 'voters'] as const,
  voters: (planId: string, slotId: string) => [...dateKeys.allVoters(planId), slotId] as const,
};

export const rsvpKeys = {
  /** Everything about a plan's answers (docs/api-after-the-date.md "Who's coming"): the prefix the live part `rsvps` reaches. */
  all: (planId: string) => [...planKeys.plan(planId), 'rsvps'] as const,
  /** `mine` is the token's user's, or `guestId`'s without a token. */
  list: (planId: string, guestId: string | null | undefined) => [...rsvpKeys.all(planId), { guestId: guestId ?? null }] as const,
};

export const previewKeys = {
  /** A plan's link preview cards (docs/web-app.md "Link preview"): the prefix the plan's live changes reach. */
  all: (planId: string) => [...planKeys.plan(planId), 'preview'] as const,
  /** The card of the plan's link, read by its slug (a reset link is another card). */
  card: (planId: string, slug: string) => [...previewKeys.all(planId), slug] as const,
};

export const authKeys = {
  me: () => ['auth', 'me'] as const,
};

export const guestKeys = {
  all: ['guests'] as const,
  session: (guestId: string) => [...guestKeys.all, guestId] as const,
};

export const interestKeys = {
  all: ['interests'] as const,
  catalog: () => [...interestKeys.all, 'catalog'] as const,
  mine: () => [...interestKeys.all, 'mine'] as const,
};

export const notificationKeys = {
  all: ['notifications'] as const,
  /** Whether a plan's e-mails are on, for the member an unsubscribe link names (by its token). */
  planEmails: (unsubscribeToken: string) => [...notificationKeys.all, 'plan-emails', unsubscribeToken] as const,
  /** Whether notifications are on for one identity on this device (`member:{id}` or `guest:{id}`). */
  device: (identity: string) => [...notificationKeys.all, 'device', identity] as const,
};

export const calendarFeedKeys = {
  /** The signed-in member's personal calendar feed URL. */
  mine: () => ['calendar-feed', 'mine'] as const,
};
