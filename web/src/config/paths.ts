// Every route of spec §2. `path` is the router pattern, `getHref` builds a link.

/** Keeps a query value readable: `/` stays as is, everything else is encoded. */
function queryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/');
}

const id = (value: string) => encodeURIComponent(value);

export const paths = {
  landing: { path: '/', getHref: () => '/' },
  home: { path: '/home', getHref: () => '/home' },
  auth: {
    path: '/auth',
    getHref: (returnTo?: string) => (returnTo ? `/auth?returnTo=${queryValue(returnTo)}` : '/auth'),
  },
  createPlan: { path: '/create-plan', getHref: () => '/create-plan' },
  planShare: { path: '/plan/:id/share', getHref: (planId: string) => `/plan/${id(planId)}/share` },
  plan: { path: '/plan/:id', getHref: (planId: string) => `/plan/${id(planId)}` },
  planIdeas: { path: '/plan/:id/ideas', getHref: (planId: string) => `/plan/${id(planId)}/ideas` },
  planAvailability: {
    path: '/plan/:id/availability',
    getHref: (planId: string) => `/plan/${id(planId)}/availability`,
  },
  profile: { path: '/profile', getHref: () => '/profile' },
  /** Behind the link mailed to the old address after an e-mail change (the token is in the fragment). */
  undoEmailChange: { path: '/account/undo-email-change', getHref: () => '/account/undo-email-change' },
  /** Behind the link in a notification e-mail's footer: stop (or restart) one plan's e-mails. */
  unsubscribe: { path: '/unsubscribe/:token', getHref: (token: string) => `/unsubscribe/${id(token)}` },
  interests: { path: '/interests', getHref: () => '/interests' },
  manageInterests: { path: '/interests/manage', getHref: () => '/interests/manage' },
  join: { path: '/l/:slug', getHref: (slug: string) => `/l/${id(slug)}` },
  guestDashboard: { path: '/l/:slug/dashboard', getHref: (slug: string) => `/l/${id(slug)}/dashboard` },
  guestIdeas: { path: '/l/:slug/ideas', getHref: (slug: string) => `/l/${id(slug)}/ideas` },
  guestAvailability: {
    path: '/l/:slug/availability',
    getHref: (slug: string) => `/l/${id(slug)}/availability`,
  },
} as const;
