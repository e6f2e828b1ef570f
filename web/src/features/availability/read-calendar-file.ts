// The page's side of reading a calendar file (decision 0088; docs/calendars.md
// "Your calendar in your availability"): the file goes to a worker of its own,
// which has ical.js; the page waits at most CALENDAR_TIME_BUDGET_MS for its
// answer, then ends the worker (which stops ical.js even inside an endless
// loop) and says CALENDAR_TOO_SLOW. The page's thread never parses, so the tab
// answers taps meanwhile.
import { CALENDAR_TOO_SLOW, type BusyDays } from './busy-calendar';
import type { BusyWindow, CalendarReadReply, CalendarReadRequest } from './busy-calendar-parse';

/** The whole file, from handing it over to the answer: about a year of a busy calendar takes a second or two on a phone. */
export const CALENDAR_TIME_BUDGET_MS = 15_000;

export const CALENDAR_READER_FAILED = "Couldn't load the calendar reader. Check your connection and try again.";

/** The part of a Worker used here. */
export interface CalendarWorker {
  onmessage: ((event: MessageEvent<CalendarReadReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  postMessage(message: CalendarReadRequest): void;
  terminate(): void;
}

/** A new calendar worker: its own chunk (ical.js), fetched when the first file is picked. */
export function startCalendarWorker(): CalendarWorker {
  return new Worker(new URL('./busy-calendar-worker.ts', import.meta.url), { type: 'module', name: 'calendar-import' });
}

/** A file that gives no busy days: the message is the sentence to show. */
export class CalendarReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalendarReadError';
  }
}

interface ReadOptions {
  timeoutMs?: number;
  startWorker?: () => CalendarWorker;
  /** Aborting ends the worker (the page left); the promise then never settles. */
  signal?: AbortSignal;
}

/**
 * The busy days of `file` in `window`, read by a worker. Rejects with a
 * CalendarReadError whose message is the sentence: the file's own (not a
 * calendar, damaged, over the occurrence budget), CALENDAR_TOO_SLOW after the
 * time budget, CALENDAR_READER_FAILED when the worker could not start.
 */
export function readCalendarFile(
  file: Blob,
  window: BusyWindow,
  { timeoutMs = CALENDAR_TIME_BUDGET_MS, startWorker = startCalendarWorker, signal }: ReadOptions = {},
): Promise<BusyDays> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return;
    let worker: CalendarWorker;
    try {
      worker = startWorker();
    } catch {
      reject(new CalendarReadError(CALENDAR_READER_FAILED));
      return;
    }
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      worker.onmessage = null;
      worker.onerror = null;
      worker.terminate();
    };
    const timer = setTimeout(() => {
      finish();
      reject(new CalendarReadError(CALENDAR_TOO_SLOW));
    }, timeoutMs);
    signal?.addEventListener('abort', finish, { once: true });
    worker.onmessage = ({ data }) => {
      finish();
      if ('days' in data) resolve(data.days);
      else reject(new CalendarReadError(data.error));
    };
    // The worker's script did not load (offline, a new build), or the worker died.
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      reject(new CalendarReadError(CALENDAR_READER_FAILED));
    };
    worker.postMessage({ file, window });
  });
}
