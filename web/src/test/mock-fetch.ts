import { vi } from 'vitest';
import { getGuestSession } from '../lib/guest-storage';

// The network boundary for component tests: `fetch` answers from a table of
// routes, and every call is recorded with its parsed body and headers.

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

type Answer = Response | Promise<Response>;
type Handler = (request: RecordedRequest) => Answer;
export type Routes = Record<string, Handler | (() => Answer)>;

export const json = (data: unknown, status = 200) => Response.json(data, { status });
export const text = (body: string, status: number) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
export const noContent = () => new Response(null, { status: 204 });

/** A response the test releases when it wants, to observe pending states. */
export function deferred() {
  let resolve!: (response: Response) => void;
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Routes are keyed "METHOD /path". Unknown routes answer 404 like the API,
 * except `GET /api/guest-session/{id}` of the guest stored on this device,
 * which the server knows unless a test says otherwise (RequirePlanVisitor
 * checks it on every /l/... page).
 */
export function mockFetch(routes: Routes) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const handler = routes[`${request.method} ${request.path}`] ?? storedGuestRoute(request);
    return handler ? handler(request) : text('Not found', 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const calls = (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path);
  return { requests, calls };
}

function storedGuestRoute(request: RecordedRequest): Handler | undefined {
  const stored = getGuestSession();
  if (request.method !== 'GET' || !stored || request.path !== `/api/guest-session/${stored.id}`) return undefined;
  return () => json({ id: stored.id, name: stored.name, planId: stored.planId, continuedAt: null });
}

/** GET /api/auth/me: the user only when the request carries `Bearer {token}`. */
export function meRoute(user: object, token = 'test-token') {
  return (request: RecordedRequest) =>
    request.headers.get('Authorization') === `Bearer ${token}` ? json(user) : text('Not signed in', 401);
}
