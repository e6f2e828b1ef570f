/**
 * Runs `callback` once the main thread is idle (requestIdleCallback), and
 * after `timeoutMs` at the latest; where the browser has no idle callbacks,
 * after `fallbackMs`. Returns a function that cancels it.
 */
export function whenIdle(callback: () => void, { timeoutMs = 3000, fallbackMs = 1000 } = {}): () => void {
  const { requestIdleCallback, cancelIdleCallback } = window;
  if (typeof requestIdleCallback === 'function' && typeof cancelIdleCallback === 'function') {
    const handle = requestIdleCallback(() => callback(), { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(callback, fallbackMs);
  return () => clearTimeout(timer);
}
