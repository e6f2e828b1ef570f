// The API: one Hono app under /api, one sub-app per domain. A domain is a
// folder routes/<domain>/ (the vocabulary of docs/architecture.md) whose
// index.ts exports a Hono app with the domain's full paths, plus one
// app.route() line below.
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
import { health } from './health.ts';
import { authRoutes } from './routes/auth/index.ts';
import { calendarRoutes } from './routes/calendar/index.ts';
import { dateRoutes } from './routes/dates/index.ts';
import { guestRoutes } from './routes/guests/index.ts';
import { ideaRoutes } from './routes/ideas/index.ts';
import { interestRoutes } from './routes/interests/index.ts';
import { liveRoutes } from './routes/live/index.ts';
import { lockRoutes } from './routes/lock/index.ts';
import { notificationRoutes } from './routes/notifications/index.ts';
import { participantRoutes } from './routes/participants/index.ts';
import { planRoutes } from './routes/plans/index.ts';
import { previewRoutes } from './routes/previews/index.ts';
import { rsvpRoutes } from './routes/rsvps/index.ts';

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
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
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

app.get('/health', health);
// One sub-app per domain (docs/architecture.md "The parts"), each with its
// full paths. Order matters where two paths can match one URL (Hono answers
// with the first route registered): live before plans, so that
// GET /plans/events is not the plan with id "events"; plans before the
// domains with a GET /plans/:id/..., so that GET /plans/slug/participants is
// the plan whose slug is "participants".
app.route('/', authRoutes);
app.route('/', guestRoutes);
app.route('/', liveRoutes);
app.route('/', planRoutes);
app.route('/', previewRoutes);
app.route('/', participantRoutes);
app.route('/', ideaRoutes);
app.route('/', lockRoutes);
app.route('/', dateRoutes);
app.route('/', rsvpRoutes);
app.route('/', interestRoutes);
app.route('/', notificationRoutes);
app.route('/', calendarRoutes);

app.notFound(() => textResponse(404, messages.notFound));
app.onError((error, c) => toErrorResponse(error, `${c.req.method} ${c.req.path}`));
