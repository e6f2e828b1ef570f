import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from './when-idle';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('whenIdle', () => {
  it('runs the callback when the browser says the main thread is idle, at the latest after the timeout', () => {
    let idle: (() => void) | undefined;
    const request = vi.fn((callback: () => void, _options?: { timeout: number }) => ((idle = callback), 7));
    vi.stubGlobal('requestIdleCallback', request);
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    const callback = vi.fn();
    whenIdle(callback, { timeoutMs: 1000 });
    expect(request).toHaveBeenCalledWith(expect.any(Function), { timeout: 1000 });
    expect(callback).not.toHaveBeenCalled();
    idle!();
    expect(callback).toHaveBeenCalledOnce();
  });

  it('cancels the idle callback', () => {
    const cancel = vi.fn();
    vi.stubGlobal('requestIdleCallback', vi.fn(() => 7));
    vi.stubGlobal('cancelIdleCallback', cancel);
    whenIdle(() => {})();
    expect(cancel).toHaveBeenCalledWith(7);
  });

  it('falls back to a timer where the browser has no idle callbacks, and cancels that too', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const callback = vi.fn();
    whenIdle(callback, { fallbackMs: 50 });
    vi.advanceTimersByTime(49);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(callback).toHaveBeenCalledOnce();
    const cancelled = vi.fn();
    whenIdle(cancelled, { fallbackMs: 50 })();
    vi.advanceTimersByTime(100);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
