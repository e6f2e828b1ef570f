// The API's URLs (spec §7), built in one place. Every id is encoded here, so a
// value from the address bar ('../auth/me') always stays one path segment.

const seg = encodeURIComponent;
const withGuest = (path: string, guestId: string | null | undefined) =>
  guestId ? `${path}?guestId=${seg(guestId)}` : path;

export const apiPaths = {
  me: () => '/api/auth/me',
  plans: () => '/api/plans',
  plan: (id: string) => `/api/plans/${seg(id)}`,
  planAction: (id: string, action: string) => `${apiPaths.plan(id)}/${action}`,
  participants: (id: string) => apiPaths.planAction(id, 'participants'),
  /** The host removes someone: DELETE. */
  participant: (planId: string, participantId: string) => `${apiPaths.participants(planId)}/${seg(participantId)}`,
  /** Who the host removed: GET the list; DELETE one to allow them back. */
  removals: (planId: string) => apiPaths.planAction(planId, 'removals'),
  removal: (planId: string, removalId: string) => `${apiPaths.removals(planId)}/${seg(removalId)}`,
  /** The host's co-hosts: POST {participantId} makes one, DELETE one ends it. */
  cohosts: (planId: string) => apiPaths.planAction(planId, 'cohosts'),
  cohost: (planId: string, participantId: string) => `${apiPaths.cohosts(planId)}/${seg(participantId)}`,
  planBySlug: (slug: string) => `/api/plans/slug/${seg(slug)}`,
  /** The card a chat shows for the plan's link (docs/api.md "Link previews"). */
  linkPreview: (slug: string) => `${apiPaths.planBySlug(slug)}/preview`,
  /** The host's "Show details in link previews": POST `{previewDetails}`. */
  previewDetails: (planId: string) => apiPaths.planAction(planId, 'preview-details'),

  /** hasUserVoted for the token's user, or for `guestId` without a token. */
  ideas: (planId: string, guestId?: string | null) => withGuest(apiPaths.planAction(planId, 'ideas'), guestId),
  activitySuggestions: (planId: string) => apiPaths.planAction(planId, 'activity-suggestions'),
  idea: (ideaId: string, rest: 'vote' | 'voters' | 'comments') => `/api/ideas/${seg(ideaId)}/${rest}`,
  /** DELETE by its author (a guest names itself) or the host. */
  deleteIdea: (ideaId: string, guestId?: string | null) => withGuest(`/api/ideas/${seg(ideaId)}`, guestId),
  deleteComment: (ideaId: string, commentId: string, guestId?: string | null) =>
    withGuest(`${apiPaths.idea(ideaId, 'comments')}/${seg(commentId)}`, guestId),

  timeSlots: (planId: string) => apiPaths.planAction(planId, 'timeslots'),
  /** The caller's own date answers (`answers=true`: each slot's answer and "none work"); a guest's by `guestId`. */
  myVotes: (planId: string, guestId?: string | null) =>
    `${apiPaths.planAction(planId, 'my-votes')}?answers=true${guestId ? `&guestId=${seg(guestId)}` : ''}`,
  timeSlot: (slotId: string, rest: 'vote' | 'voters') => `/api/timeslots/${seg(slotId)}/${rest}`,

  /** Who's coming (docs/api-after-the-date.md "Who's coming"): PUT the caller's answer; GET the headcount (`mine` for `guestId` without a token). */
  rsvp: (planId: string) => apiPaths.planAction(planId, 'rsvp'),
  rsvps: (planId: string, guestId?: string | null) => withGuest(apiPaths.planAction(planId, 'rsvps'), guestId),
  /** The host (or a co-host) answers for someone: PUT. */
  rsvpFor: (planId: string, participantId: string) => `${apiPaths.planAction(planId, 'rsvps')}/${seg(participantId)}`,
  /** The host's spots and friends: POST `{capacity, maxPlusOnes}`. */
  capacity: (planId: string) => apiPaths.planAction(planId, 'capacity'),

  guestSessions: () => '/api/guest-session',
  guestSession: (guestId: string) => `/api/guest-session/${seg(guestId)}`,
  guestOtherDevices: (guestId: string) => `/api/guest-session/${seg(guestId)}/other-devices`,
  /** "Yes, that's me": a new secret for this device, by plan and name. */
  restoreGuestSession: () => '/api/guest-session/restore',
  signOut: () => '/api/auth/sign-out',
  signOutEverywhere: () => '/api/auth/sign-out-everywhere',
  /** DELETE: the signed-in member's account (docs/api-accounts.md "Auth"). */
  account: () => '/api/auth/account',
  profile: () => '/api/auth/profile',
  confirmEmail: () => '/api/auth/confirm-email',
  undoEmailChange: () => '/api/auth/undo-email-change',
  interestCatalog: () => '/api/interests/catalog',
  myInterests: () => '/api/users/me/interests',
  myInterest: (id: string) => `/api/users/me/interests/${seg(id)}`,

  /** Web Push: the server's VAPID key (GET), and this device's subscription (POST on, DELETE off). */
  pushPublicKey: () => '/api/push/public-key',
  pushSubscriptions: () => '/api/push/subscriptions',

  /**
   * A notification e-mail's unsubscribe link: GET reads the plan's e-mails,
   * POST turns them off, DELETE on again. The token is the only credential.
   */
  unsubscribe: (token: string) => `/api/unsubscribe/${seg(token)}`,

  /** The member's personal calendar feed: GET its URL, POST `calendarFeedReset` for a new one (docs/calendars.md "Calendar feed"). */
  calendarFeed: () => '/api/calendar/feed',
  calendarFeedReset: () => '/api/calendar/feed/rotate',

  /** The live change feed of one plan (docs/live-updates.md). */
  planEvents: (id: string, since?: number) =>
    since === undefined ? `${apiPaths.plan(id)}/events` : `${apiPaths.plan(id)}/events?since=${since}`,
  /** The live change feed of every plan the signed-in user takes part in. */
  myPlanEvents: () => '/api/plans/events',
};
