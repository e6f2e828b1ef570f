// The API's pure rules for calendar dates, periods and clock times
// (supabase/functions/_shared/contract/periods.ts), imported as they are rather than
// copied: the file has no Deno, Node or DOM API and no imports, so the web app
// and the server read and show times identically. Its own unit tests run in
// the Vitest project `unit`; the web tests cover what the app builds on it.
export {
  addDays,
  type CalendarDate,
  type ClockTime,
  formatIsoDate,
  formatLongDate,
  formatPeriod,
  parseCalendarDate,
  to12HourTime,
} from '../../../supabase/functions/_shared/contract/periods.ts';
