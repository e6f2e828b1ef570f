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

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()).trim();
  throw new ApiError(res.status, res.statusText, text);
}

/** The server's sentence for a failed call, or undefined when there is none to show. */
export function getServerMessage(error: unknown): string | undefined {
  return error instanceof ApiError && error.serverText ? error.serverText : undefined;
}
