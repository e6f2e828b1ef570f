// The API: one Hono app under /api, one sub-app per resource. A new resource is
// a routes/<resource>.ts exporting a Hono app, plus one app.route() line below.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { contextStorage } from 'hono/context-storage';
import { cors } from 'hono/cors';
import { getPath } from 'hono/utils/url';
import { GUEST_SECRET_HEADER } from '../_shared/contract/guest-secret.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../_shared/contract/idempotency.ts';
import { allowedOrigins } from '../_shared/config/env.ts';
import { HttpError, messages, textResponse, toErrorResponse } from '../_shared/http/errors.ts';
import { securityHeaders } from '../_shared/http/security-headers.ts';
import { authRoutes } from './routes/auth/index.ts';
import { calendarRoutes } from './routes/calendar/index.ts';
import { guestRoutes } from './routes/guests/index.ts';
import { healthRoutes } from './health.ts';
import { ideaRoutes } from './routes/ideas/index.ts';
import { interestCatalogRoutes, myInterestRoutes } from './routes/interests/index.ts';
import { joiningRoutes } from './routes/participants/index.ts';
import { planEventRoutes } from './routes/live/index.ts';
import { planDateRoutes } from './routes/dates/index.ts';
import { planIdeaRoutes } from './routes/ideas/plan-ideas.ts';
import { planLockRoutes } from './routes/lock/index.ts';
import { planNotifyRoutes } from './routes/notifications/reminders.ts';
import { planRoutes } from './routes/plans/index.ts';
import { pushRoutes } from './routes/notifications/push.ts';
import { schedulerRoutes } from './routes/notifications/scheduler.ts';
import { timeSlotRoutes } from './routes/dates/timeslots.ts';
import { unsubscribeRoutes } from './routes/notifications/unsubscribe.ts';

/** Bodies are small JSON documents; anything bigger is refused before it is read in full. */
const MAX_BODY_BYTES = 16 * 1024;

const FUNCTIONS_PREFIX = '/functions/v1';

/**
 * Locally the function is served under /functions/v1/api/... (like
 * `supabase functions serve`); hosted Supabase hands it /api/.... The router
 * reads every path through this, so one set of routes serves both without
 * copying the request.
 */
export function stripFunctionsPrefix(pathname: string): string {
  if (pathname === FUNCTIONS_PREFIX) return '/';
  return pathname.startsWith(`${FUNCTIONS_PREFIX}/`) ? pathname.slice(FUNCTIONS_PREFIX.length) : pathname;
}

const root = new Hono({ getPath: (request) => stripFunctionsPrefix(getPath(request)) });
// First, so it wraps every answer: preflights, 413s, errors, 404s (also
// outside /api), 304s and event streams. The basePath app shares root's router.
root.use('*', securityHeaders);

export const app = root.basePath('/api');

app.use(
  '*',
  cors({
    // Only listed origins get CORS headers; others are refused by the browser.
    origin: (origin) => (allowedOrigins().includes(origin) ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', GUEST_SECRET_HEADER, IDEMPOTENCY_KEY_HEADER],
    // Readable by the web app: a vote or comment sent again was answered from its first time.
    exposeHeaders: [IDEMPOTENT_REPLAYED_HEADER],
    maxAge: 600,
  }),
);

// Every request runs in its own context storage, where withRequest() finds the
// verified session of its token and the guest secret the device sent
// (_shared/db/request-scope.ts).
app.use('*', contextStorage());

app.use(
  '*',
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new HttpError(413, messages.bodyTooLarge);
    },
  }),
);

app.route('/health', healthRoutes);
app.route('/auth', authRoutes);
app.route('/guest-session', guestRoutes);
// Before planRoutes: GET /plans/events is not the plan with id "events".
app.route('/plans', planEventRoutes);
app.route('/plans', joiningRoutes);
app.route('/plans', planRoutes);
app.route('/plans', planIdeaRoutes);
app.route('/plans', planDateRoutes);
app.route('/plans', planLockRoutes);
app.route('/plans', planNotifyRoutes);
app.route('/timeslots', timeSlotRoutes);
app.route('/ideas', ideaRoutes);
app.route('/interests', interestCatalogRoutes);
app.route('/users/me/interests', myInterestRoutes);
app.route('/push', pushRoutes);
app.route('/scheduler', schedulerRoutes);
app.route('/unsubscribe', unsubscribeRoutes);
app.route('/calendar', calendarRoutes);

app.notFound(() => textResponse(404, messages.notFound));
app.onError((error, c) => toErrorResponse(error, `${c.req.method} ${c.req.path}`));
