// Open live streams, counted per client network and in all, in this instance
// (_shared/config/env.ts liveStreamLimits). A stream takes a slot before it opens and
// gives it back when it ends, whichever way it ends.
import { liveStreamLimits } from '../../../_shared/config/env.ts';
import { tooManyRequests } from '../../../_shared/http/errors.ts';

/** Seconds a refused client is asked to wait (the web app backs off at least this long). */
const STREAM_RETRY_SECONDS = 30;

const open = new Map<string, number>();
let total = 0;

/** A slot for one more stream from `network`, or 429; the function releases it (once). */
export function takeStreamSlot(network: string, limits = liveStreamLimits()): () => void {
  const mine = open.get(network) ?? 0;
  if (mine >= limits.perNetwork) {
    throw tooManyRequests('Too many live connections from your network', STREAM_RETRY_SECONDS);
  }
  if (total >= limits.perInstance) {
    throw tooManyRequests('Too many live connections right now', STREAM_RETRY_SECONDS);
  }
  open.set(network, mine + 1);
  total += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    total -= 1;
    const left = (open.get(network) ?? 1) - 1;
    if (left <= 0) open.delete(network);
    else open.set(network, left);
  };
}
