// Whose 7 PM: a plan's time is the host's wall clock in the zone of the
// host's phone (the plan's timeZone, docs/decisions/0074). The screens show it
// as the spec says ("7:30 PM"); for a viewer whose own clock reads another
// time at that moment, one more line says so: "7:30 PM Berlin time is 1:30 PM
// where you are." Pure; the viewer's zone is passed in (deviceTimeZone()).
import { instantOf, isTimeZoneName, wallClockAt } from '../../../supabase/functions/_shared/contract/zoned-time.ts';
import { format12HourTime, parseCalendarDate, parseClockTime } from '../../../supabase/functions/_shared/contract/periods.ts';

/** 'Berlin' of 'Europe/Berlin', 'New York' of 'America/New_York', 'UTC' of 'UTC'. */
export function zoneCity(timeZone: string): string {
  return timeZone.split('/').at(-1)!.replaceAll('_', ' ');
}

const dayFormat = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * The line for a viewer in `viewerZone` of a plan whose `time` ('7:30 PM')
 * on `date` ('YYYY-MM-DD') is the wall clock in `timeZone`; null when there is
 * nothing to say: no zone, no clock time, an unknown zone, or the viewer's
 * clock reads the same then.
 */
export function hostTimeNote(
  { date, time, timeZone }: { date: string | null | undefined; time: string | null | undefined; timeZone: string | null | undefined },
  viewerZone: string | null,
): string | null {
  if (!date || !timeZone || !viewerZone || !isTimeZoneName(timeZone) || !isTimeZoneName(viewerZone)) return null;
  const day = parseCalendarDate(date);
  const clock = parseClockTime(time);
  if (!day || !clock) return null;
  const instant = instantOf({ ...day, hour: clock.hour, minute: clock.minute, second: 0 }, timeZone);
  const there = wallClockAt(instant, timeZone);
  const here = wallClockAt(instant, viewerZone);
  const sameDay = here.year === there.year && here.month === there.month && here.day === there.day;
  if (sameDay && here.hour === there.hour && here.minute === there.minute) return null;
  const hostTime = format12HourTime({ hour: there.hour, minute: there.minute });
  const yourTime = format12HourTime({ hour: here.hour, minute: here.minute });
  const yourDay = sameDay ? '' : ` on ${dayFormat.format(new Date(Date.UTC(here.year, here.month - 1, here.day)))}`;
  return `${hostTime} ${zoneCity(timeZone)} time is ${yourTime}${yourDay} where you are.`;
}
