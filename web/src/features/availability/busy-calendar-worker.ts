// The calendar worker (decision 0088; docs/calendars.md "Your calendar in your
// availability"): a picked .ics file is read here, off the page's thread, so a
// file that takes long (or ical.js looping without end) never freezes the tab;
// the page ends this worker when it is over its time budget
// (read-calendar-file.ts). One request per worker: the page starts one per
// file and ends it after the answer.
import { readCalendarRequest, type CalendarReadRequest } from './busy-calendar-parse';

/** The part of a dedicated worker's global scope used here (the web app's types are the page's). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CalendarReadRequest>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (event) => {
  void readCalendarRequest(event.data).then((reply) => scope.postMessage(reply));
};
