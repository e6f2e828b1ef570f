// Wall-clock time in a named time zone, with the runtime's own time-zone data
// (Intl, in the browser and in Deno alike): a plan's calendar event turns the
// host's "7:00 PM" in the host's zone into an instant (calendar.ts), and the
// web's calendar import reads events whose TZID the file does not define and
// places every event on the days of the device's zone
// (web/src/features/availability/busy-calendar-parse.ts). Pure; the zone is
// always passed in, so tests pin it.

export interface WallClock {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// One formatter per zone name, kept: building one costs far more than using
// it. Bounded, since names arrive from requests (every letter-case variant of
// a zone is a valid name to Intl).
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 1000;

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Whether the runtime knows `name` as an IANA time zone ("Europe/Berlin", "UTC"). */
export function isKnownTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** What an IANA zone name looks like ('UTC', 'America/Port-au-Prince', 'Etc/GMT+5'); an offset such as '+02:00' is none. */
export const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+/-]{0,63}$/;

/**
 * Whether `name` is the name of an IANA zone this runtime knows, as a browser
 * names its own ('Asia/Kolkata'; kept as given: runtimes differ in which of a
 * zone's names they call canonical, Deno's ICU says 'Asia/Calcutta').
 */
export function isTimeZoneName(name: string): boolean {
  return TIME_ZONE_NAME.test(name) && isKnownTimeZone(name);
}

/** The wall clock in `timeZone` at the instant `epochMs`. */
export function wallClockAt(epochMs: number, timeZone: string): WallClock {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(epochMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

const asUtc = (clock: WallClock) =>
  Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);

/** How far `timeZone` is ahead of UTC at the instant `epochMs`, in ms. */
function offsetAt(epochMs: number, timeZone: string): number {
  return asUtc(wallClockAt(epochMs, timeZone)) - Math.floor(epochMs / 1000) * 1000;
}

/**
 * The instant the wall clock in `timeZone` reads `clock`. A time the clocks
 * skip (spring forward) is read with the offset before the change, so it lands
 * an hour later, as calendar apps place it; a time they pass twice (fall back)
 * is the first of the two.
 */
export function instantOf(clock: WallClock, timeZone: string): number {
  const guess = asUtc(clock);
  // The offsets a day either side: the instant lies between them, and a zone
  // changes its offset at most once in two days.
  const before = offsetAt(guess - 86_400_000, timeZone);
  const after = offsetAt(guess + 86_400_000, timeZone);
  for (const offset of before === after ? [before] : [Math.max(before, after), Math.min(before, after)]) {
    const instant = guess - offset;
    if (asUtc(wallClockAt(instant, timeZone)) === guess) return instant;
  }
  // In a gap: the offset in force before it.
  return guess - before;
}
