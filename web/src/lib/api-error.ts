/** A non-2xx answer. `message` is `"{status}: {text or statusText}"` (spec §8). */
export class ApiError extends Error {
  readonly status: number;
  /** The server's own sentence (text/plain body), '' when it sent none. */
  readonly serverText: string;

  constructor(status: number, statusText: string, serverText: string) {
    super(`${status}: ${serverText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverText = serverText;
  }
}

/** The ApiError of a non-2xx answer, with the server's sentence (its text/plain body, '' when unreadable). */
export async function apiErrorOf(res: Response): Promise<ApiError> {
  const text = (await res.text().catch(() => '')).trim();
  return new ApiError(res.status, res.statusText, text);
}

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  throw await apiErrorOf(res);
}

/** The server's sentence for a failed call, or undefined when there is none to show. */
export function getServerMessage(error: unknown): string | undefined {
  return error instanceof ApiError && error.serverText ? error.serverText : undefined;
}

/**
 * The request never got an answer: fetch rejects with a TypeError when there
 * is no network (or the server cannot be reached), never for an answer.
 */
export const isNetworkFailure = (error: unknown): boolean => error instanceof TypeError;

/** A screen whose data needs the network, with none (docs/offline.md "Offline"). */
export const OFFLINE_PAGE = "You're offline. This page will load when you're back online.";
