import { vi } from 'vitest';

// A fake API for event streams: `fetch` answers each request with a stream the
// test writes to (or with a status it scripted), and aborting the request
// errors the stream, as a browser does.

interface FakeStream {
  url: string;
  headers: Headers;
  signal: AbortSignal;
  /** Raw text, e.g. 'event: ready\ndata: {...}\n\n'. */
  write(text: string): void;
  /** An event with its id line. */
  event(name: string, data: unknown, id?: number): void;
  /** The server's normal close. */
  end(): void;
  /** The connection breaks. */
  fail(): void;
  get aborted(): boolean;
}

type Answer = number | 'network-error' | 'stream';

export function fakeSseServer() {
  const streams: FakeStream[] = [];
  const scripted: Answer[] = [];
  const encoder = new TextEncoder();

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const answer = scripted.shift() ?? 'stream';
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    if (typeof answer === 'number') {
      // A 429 says how long to wait, as the API's does.
      const headers: Record<string, string> = answer === 429 ? { 'Retry-After': '30' } : {};
      return new Response(answer === 404 ? 'Plan not found' : 'Nope', { status: answer, headers });
    }
    const signal = init?.signal ?? new AbortController().signal;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let done = false;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const stream: FakeStream = {
      url: String(input),
      headers: new Headers(init?.headers),
      signal,
      write: (text) => {
        if (!done) controller.enqueue(encoder.encode(text));
      },
      event: (name, data, id) => stream.write(`event: ${name}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`),
      end: () => {
        if (done) return;
        done = true;
        controller.close();
      },
      fail: () => {
        if (done) return;
        done = true;
        controller.error(new TypeError('network error'));
      },
      get aborted() {
        return signal.aborted;
      },
    };
    signal.addEventListener('abort', () => stream.fail());
    streams.push(stream);
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  });

  return {
    fetch: fetchMock as unknown as typeof fetch,
    fetchMock,
    streams,
    /** The next requests answer with these (a status, or a network error) instead of a stream. */
    script: (...answers: Answer[]) => scripted.push(...answers),
    latest: () => streams.at(-1)!,
    urls: () => fetchMock.mock.calls.map(([input]) => String(input)),
  };
}
