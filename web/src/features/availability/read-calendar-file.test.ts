import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CALENDAR_TOO_SLOW, NOT_A_CALENDAR } from './busy-calendar';
import type { CalendarReadReply, CalendarReadRequest } from './busy-calendar-parse';
import {
  CALENDAR_READER_FAILED,
  CALENDAR_TIME_BUDGET_MS,
  CalendarReadError,
  readCalendarFile,
  type CalendarWorker,
} from './read-calendar-file';

// The page's side of the calendar worker (decision 0088): a stand-in worker
// that the test answers, or that never answers, as ical.js in an endless
// loop would not.

class TestWorker implements CalendarWorker {
  onmessage: CalendarWorker['onmessage'] = null;
  onerror: CalendarWorker['onerror'] = null;
  received: CalendarReadRequest[] = [];
  terminated = false;
  postMessage(message: CalendarReadRequest) {
    this.received.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  answer(reply: CalendarReadReply) {
    this.onmessage?.(new MessageEvent('message', { data: reply }));
  }
  fail() {
    this.onerror?.(new ErrorEvent('error', { message: 'Failed to fetch a worker script', cancelable: true }));
  }
}

const window = { from: '2026-12-01', to: '2026-12-31', timeZone: 'Europe/Berlin' };
const file = new Blob(['BEGIN:VCALENDAR']);
let worker: TestWorker;
const startWorker = () => worker;

beforeEach(() => {
  vi.useFakeTimers();
  worker = new TestWorker();
});
afterEach(() => vi.useRealTimers());

/** How a promise stands now: settled or not. */
async function state<T>(promise: Promise<T>) {
  let outcome: { value: T } | { error: unknown } | 'pending' = 'pending';
  promise.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  await vi.advanceTimersByTimeAsync(0);
  return outcome;
}

describe('readCalendarFile', () => {
  it('hands the file and the window to a worker, answers its busy days, and ends the worker', async () => {
    const reading = readCalendarFile(file, window, { startWorker });
    expect(worker.received).toEqual([{ file, window }]);
    worker.answer({ days: { '2026-12-03': [[540, 600]] } });
    await expect(reading).resolves.toEqual({ '2026-12-03': [[540, 600]] });
    expect(worker.terminated).toBe(true);
  });

  it("says the worker's sentence for a file that gives no busy days", async () => {
    const reading = readCalendarFile(file, window, { startWorker });
    worker.answer({ error: NOT_A_CALENDAR });
    await expect(reading).rejects.toEqual(new CalendarReadError(NOT_A_CALENDAR));
    expect(worker.terminated).toBe(true);
  });

  it('ends a worker that has not answered within the time budget (ical.js looping for ever), with one sentence', async () => {
    const reading = readCalendarFile(file, window, { startWorker });
    await vi.advanceTimersByTimeAsync(CALENDAR_TIME_BUDGET_MS - 1);
    expect(await state(reading)).toBe('pending');
    expect(worker.terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await state(reading)).toEqual({ error: new CalendarReadError(CALENDAR_TOO_SLOW) });
    expect(worker.terminated).toBe(true);
    // A late answer changes nothing.
    worker.answer({ days: {} });
    expect(await state(reading)).toEqual({ error: new CalendarReadError(CALENDAR_TOO_SLOW) });
  });

  it('the budget is 15 seconds unless told', async () => {
    expect(CALENDAR_TIME_BUDGET_MS).toBe(15_000);
    const outcome = readCalendarFile(file, window, { startWorker, timeoutMs: 50 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(50);
    expect(await outcome).toEqual(new CalendarReadError(CALENDAR_TOO_SLOW));
  });

  it('says the reader could not load when the worker fails to start or its script fails', async () => {
    const failing = readCalendarFile(file, window, {
      startWorker: () => {
        throw new DOMException('Refused', 'SecurityError');
      },
    });
    await expect(failing).rejects.toEqual(new CalendarReadError(CALENDAR_READER_FAILED));

    const reading = readCalendarFile(file, window, { startWorker });
    worker.fail();
    await expect(reading).rejects.toEqual(new CalendarReadError(CALENDAR_READER_FAILED));
    expect(worker.terminated).toBe(true);
  });

  it('ends the worker when the page leaves (abort), and then says nothing', async () => {
    const controller = new AbortController();
    const reading = readCalendarFile(file, window, { startWorker, signal: controller.signal });
    controller.abort();
    expect(worker.terminated).toBe(true);
    await vi.advanceTimersByTimeAsync(CALENDAR_TIME_BUDGET_MS);
    expect(await state(reading)).toBe('pending');
  });
});
