// Spec §9: a named period is shown as its hour, a clock time 'H:mm' in 12-hour
// form ('19:00' is 7PM, '19:30' is 7:30PM).

const NAMED_PERIODS: Record<string, string> = {
  Morning: '9AM',
  Afternoon: '2PM',
  Evening: '7PM',
  Night: '9PM',
};

const CLOCK = /^(\d{1,2}):(\d{2})$/;

/** '' for a whole-day slot (no period); anything unknown is shown as is. */
export function formatPeriod(period: string | null | undefined): string {
  if (!period) return '';
  const named = NAMED_PERIODS[period];
  if (named) return named;
  const match = CLOCK.exec(period);
  if (!match) return period;
  const hours = Number(match[1]);
  const minutes = match[2]!;
  if (hours > 23 || Number(minutes) > 59) return period;
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const suffix = hours < 12 ? 'AM' : 'PM';
  return minutes === '00' ? `${hour12}${suffix}` : `${hour12}:${minutes}${suffix}`;
}
