import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashKey, QueryClient } from '@tanstack/react-query';
import { apiGet, apiRequest, parseEtagVersion, queryVersion } from './api';
import { ApiError, getServerMessage } from './api-error';
import { clearGuest, setGuestSession } from './guest-storage';

function stubFetch(...responses: Response[]) {
  const fetchMock = vi.fn<typeof fetch>(async () => responses.shift() ?? new Response('No more answers', { status: 599 }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const identity = (body: unknown) => body;
const etagged = (data: unknown, etag: string) => Response.json(data, { headers: { ETag: etag } });
const notModified = (etag?: string) => new Response(null, { status: 304, headers: etag ? { ETag: etag } : {} });

const headersOf = (init: RequestInit | undefined) => new Headers(init?.headers);

afterEach(() => {
  vi.unstubAllGlobals();
  clearGuest();
  localStorage.clear();
});

describe('apiRequest', () => {
  it('sends JSON with credentials and no token when none is stored', async () => {
    const fetchMock = stubFetch(new Response(null, { status: 204 }));
    await apiRequest('POST', '/api/auth/send-otp', { email: 'a@b.co' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/send-otp');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe('{"email":"a@b.co"}');
    expect(headersOf(init).get('Content-Type')).toBe('application/json');
    expect(headersOf(init).has('Authorization')).toBe(false);
  });

  it('adds the Bearer token and no content type without a body', async () => {
    localStorage.setItem('authToken', 'tok-1');
    const fetchMock = stubFetch(new Response(null, { status: 204 }));
    await apiRequest('DELETE', '/api/plans/1');
    const init = fetchMock.mock.calls[0]![1];
    expect(init?.body).toBeUndefined();
    expect(headersOf(init).get('Authorization')).toBe('Bearer tok-1');
    expect(headersOf(init).has('Content-Type')).toBe(false);
  });

  it("sends the stored guest session's secret in the X-Guest-Secret header, never in the URL or the body", async () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' });
    const fetchMock = stubFetch(new Response(null, { status: 204 }));
    await apiRequest('POST', '/api/ideas/i1/vote', { guestId: 'g1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(headersOf(init).get('X-Guest-Secret')).toBe('device-secret');
    expect(String(url)).not.toContain('device-secret');
    expect(init?.body).toBe('{"guestId":"g1"}');
  });

  it('sends no X-Guest-Secret without a stored secret; a header given for one call wins', async () => {
    const fetchMock = stubFetch(new Response(null, { status: 204 }), new Response(null, { status: 204 }));
    await apiRequest('POST', '/api/plans/p1/join', { guestId: 'g1' });
    expect(headersOf(fetchMock.mock.calls[0]![1]).has('X-Guest-Secret')).toBe(false);
    await apiRequest('POST', '/api/plans/p1/join', { guestId: 'g1' }, { headers: { 'X-Guest-Secret': 'new-one' } });
    expect(headersOf(fetchMock.mock.calls[1]![1]).get('X-Guest-Secret')).toBe('new-one');
  });

  it('throws "{status}: {text}" with the server sentence', async () => {
    stubFetch(new Response('Too many codes requested. Try again in 30 seconds', { status: 429 }));
    const error = await apiRequest('POST', '/api/auth/send-otp', { email: 'a@b.co' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('429: Too many codes requested. Try again in 30 seconds');
    expect((error as ApiError).status).toBe(429);
    expect(getServerMessage(error)).toBe('Too many codes requested. Try again in 30 seconds');
  });

  it('falls back to the status text when the body is empty', async () => {
    stubFetch(new Response('', { status: 500, statusText: 'Internal Server Error' }));
    await expect(apiRequest('GET', '/api/plans')).rejects.toThrow('500: Internal Server Error');
    stubFetch(new Response('', { status: 500, statusText: 'Internal Server Error' }));
    expect(getServerMessage(await apiRequest('GET', '/api/plans').catch((e: unknown) => e))).toBeUndefined();
  });
});

describe('apiGet', () => {
  const key = ['plans', 'p1', 'detail'] as const;

  it('GETs the path with credentials and the token, and parses the JSON', async () => {
    localStorage.setItem('authToken', 'tok-2');
    const fetchMock = stubFetch(Response.json({ id: 'p1' }));
    const client = new QueryClient();
    const data = await client.fetchQuery({ queryKey: key, queryFn: apiGet('/api/plans/p1', (body) => ({ parsed: body })) });
    expect(data).toEqual({ parsed: { id: 'p1' } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/plans/p1');
    expect(init?.credentials).toBe('include');
    expect(headersOf(init).get('Authorization')).toBe('Bearer tok-2');
    expect(headersOf(init).has('If-None-Match')).toBe(false);
  });

  it('gives null on 401 when asked to, and throws it otherwise', async () => {
    stubFetch(new Response('Not signed in', { status: 401 }), new Response('Not signed in', { status: 401 }));
    const client = new QueryClient();
    await expect(client.fetchQuery({ queryKey: ['me'], queryFn: apiGet('/api/auth/me', identity, { on401: 'returnNull' }) })).resolves.toBeNull();
    await expect(client.fetchQuery({ queryKey: ['me2'], queryFn: apiGet('/api/auth/me', identity) })).rejects.toThrow('401: Not signed in');
  });

  it('releases the body of a 401 it answers with null (it reads nothing from it)', async () => {
    const unauthorized = new Response('Not signed in', { status: 401 });
    stubFetch(unauthorized);
    const client = new QueryClient();
    await expect(client.fetchQuery({ queryKey: ['me'], queryFn: apiGet('/api/auth/me', identity, { on401: 'returnNull' }) })).resolves.toBeNull();
    await vi.waitFor(() => expect(unauthorized.bodyUsed || unauthorized.body?.locked).toBe(true));
    await expect(unauthorized.text()).rejects.toThrow();
  });

  it('still throws other errors when 401 gives null', async () => {
    stubFetch(new Response('Plan not found', { status: 404 }));
    const client = new QueryClient();
    await expect(
      client.fetchQuery({ queryKey: key, queryFn: apiGet('/api/plans/x', identity, { on401: 'returnNull' }) }),
    ).rejects.toThrow('404: Plan not found');
  });

  it('revalidates with If-None-Match and answers a 304 with the cached data, not parsed again', async () => {
    const fetchMock = stubFetch(etagged({ id: 'p1', title: 'A' }, 'W/"v12"'), notModified('W/"v12"'));
    const client = new QueryClient();
    const parse = vi.fn((body: unknown) => ({ ...(body as object), parsed: true }));
    const options = { queryKey: key, queryFn: apiGet('/api/plans/p1', parse) };
    const first = await client.fetchQuery(options);
    expect(queryVersion(client, hashKey(key))).toBe(12);

    const second = await client.fetchQuery({ ...options, staleTime: 0 });
    expect(headersOf(fetchMock.mock.calls[1]![1]).get('If-None-Match')).toBe('W/"v12"');
    expect(second).toBe(first);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(queryVersion(client, hashKey(key))).toBe(12);
  });

  it('records the version of a viewer-specific ETag and none for the home list', async () => {
    expect(parseEtagVersion('W/"v12.ab12cd34"')).toBe(12);
    expect(parseEtagVersion('"v3"')).toBe(3);
    expect(parseEtagVersion('W/"l9f8e7"')).toBeUndefined();
    stubFetch(etagged([], 'W/"l9f8e7"'));
    const client = new QueryClient();
    await client.fetchQuery({ queryKey: ['plans', 'list'], queryFn: apiGet('/api/plans', identity) });
    expect(queryVersion(client, hashKey(['plans', 'list']))).toBeUndefined();
  });

  it('sends no If-None-Match once the cache no longer holds the data', async () => {
    const fetchMock = stubFetch(etagged({ v: 1 }, 'W/"v1"'), etagged({ v: 2 }, 'W/"v2"'), etagged({ v: 3 }, 'W/"v3"'));
    const client = new QueryClient();
    const options = { queryKey: key, queryFn: apiGet('/api/plans/p1', identity) };
    await client.fetchQuery(options);
    client.removeQueries({ queryKey: key });
    expect(queryVersion(client, hashKey(key))).toBeUndefined();
    await client.fetchQuery(options);
    expect(headersOf(fetchMock.mock.calls[1]![1]).has('If-None-Match')).toBe(false);

    // Data written by hand is vouched for by no ETag.
    client.setQueryData(key, { v: 'local' });
    expect(queryVersion(client, hashKey(key))).toBeUndefined();
    await client.fetchQuery({ ...options, staleTime: 0 });
    expect(headersOf(fetchMock.mock.calls[2]![1]).has('If-None-Match')).toBe(false);
    expect(queryVersion(client, hashKey(key))).toBe(3);
  });

  it('asks again for the whole answer when a 304 comes after the copy was dropped', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answers = [etagged({ v: 1 }, 'W/"v1"'), notModified(), etagged({ v: 1 }, 'W/"v1"')];
    const fetchMock = vi.fn<typeof fetch>(async () => {
      if (fetchMock.mock.calls.length === 2) await gate;
      return answers.shift()!;
    });
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient();
    const queryFn = apiGet('/api/plans/p1', identity);
    await client.fetchQuery({ queryKey: key, queryFn });
    // A second observer-less fetch of the same key, while the cache drops the data.
    const refetch = queryFn({ client, queryKey: key, signal: new AbortController().signal, meta: undefined });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    client.removeQueries({ queryKey: key });
    release();
    await expect(refetch).resolves.toEqual({ v: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(headersOf(fetchMock.mock.calls[2]![1]).has('If-None-Match')).toBe(false);
  });
});

// public/shell.js asks for the join page's plan before the app has loaded (docs/web-app.md "First paint").
describe('apiGet and the early answer of public/shell.js', () => {
  const key = ['plans', 'slug', 'abc'] as const;
  const early = (url: string, response: Response) => {
    window.hangplanEarlyAnswer = { url, response: Promise.resolve(response) };
  };
  afterEach(() => {
    delete window.hangplanEarlyAnswer;
  });

  it("takes the answer shell.js already asked for, ETag and all, instead of asking again; the next fetch asks", async () => {
    early('/api/plans/slug/abc', etagged({ id: 'p1', title: 'Early' }, 'W/"v4"'));
    const fetchMock = stubFetch(notModified('W/"v4"'));
    const client = new QueryClient();
    const options = { queryKey: key, queryFn: apiGet('/api/plans/slug/abc', identity) };
    await expect(client.fetchQuery(options)).resolves.toEqual({ id: 'p1', title: 'Early' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(queryVersion(client, hashKey(key))).toBe(4);
    expect(window.hangplanEarlyAnswer).toBeUndefined();

    await expect(client.fetchQuery({ ...options, staleTime: 0 })).resolves.toEqual({ id: 'p1', title: 'Early' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(headersOf(fetchMock.mock.calls[0]![1]).get('If-None-Match')).toBe('W/"v4"');
  });

  it("reports the early answer's failure as its own (a missing plan)", async () => {
    early('/api/plans/slug/abc', new Response('Plan not found', { status: 404 }));
    const fetchMock = stubFetch();
    await expect(new QueryClient().fetchQuery({ queryKey: key, queryFn: apiGet('/api/plans/slug/abc', identity) })).rejects.toThrow('404: Plan not found');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('leaves an answer for another address alone', async () => {
    early('/api/plans/slug/other', Response.json({ id: 'other' }));
    const fetchMock = stubFetch(Response.json({ id: 'p1' }));
    await expect(new QueryClient().fetchQuery({ queryKey: key, queryFn: apiGet('/api/plans/slug/abc', identity) })).resolves.toEqual({ id: 'p1' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(window.hangplanEarlyAnswer?.url).toBe('/api/plans/slug/other');
  });

  it('asks for itself, and drops the early answer, once the request carries a token (signed in meanwhile)', async () => {
    early('/api/plans/slug/abc', Response.json({ id: 'p1', as: 'visitor' }));
    localStorage.setItem('authToken', 'tok-3');
    const fetchMock = stubFetch(Response.json({ id: 'p1', as: 'member' }));
    await expect(new QueryClient().fetchQuery({ queryKey: key, queryFn: apiGet('/api/plans/slug/abc', identity) })).resolves.toEqual({ id: 'p1', as: 'member' });
    expect(headersOf(fetchMock.mock.calls[0]![1]).get('Authorization')).toBe('Bearer tok-3');
    expect(window.hangplanEarlyAnswer).toBeUndefined();
  });
});
