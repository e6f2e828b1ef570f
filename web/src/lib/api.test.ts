import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueryFunctionContext } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from './api';
import { ApiError, getServerMessage } from './api-error';

function stubFetch(response: Response) {
  const fetchMock = vi.fn<typeof fetch>(async () => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function context(queryKey: readonly unknown[]) {
  return { queryKey, signal: new AbortController().signal, meta: undefined } as unknown as QueryFunctionContext;
}

const headersOf = (init: RequestInit | undefined) => new Headers(init?.headers);

afterEach(() => {
  vi.unstubAllGlobals();
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

describe('getQueryFn', () => {
  it('GETs the query key joined by "/" and parses JSON', async () => {
    localStorage.setItem('authToken', 'tok-2');
    const fetchMock = stubFetch(Response.json({ id: 'p1' }));
    const data = await getQueryFn({ on401: 'throw' })(context(['/api/plans', 'p1']));
    expect(data).toEqual({ id: 'p1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/plans/p1');
    expect(init?.credentials).toBe('include');
    expect(headersOf(init).get('Authorization')).toBe('Bearer tok-2');
  });

  it('gives null on 401 when asked to', async () => {
    stubFetch(new Response('Not signed in', { status: 401 }));
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/auth/me']))).resolves.toBeNull();
  });

  it('throws on 401 by default', async () => {
    stubFetch(new Response('Not signed in', { status: 401 }));
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/auth/me']))).rejects.toThrow('401: Not signed in');
  });

  it('still throws other errors when 401 gives null', async () => {
    stubFetch(new Response('Plan not found', { status: 404 }));
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/plans', 'x']))).rejects.toThrow(
      '404: Plan not found',
    );
  });
});
