import { useEffect, useState } from 'react';

/**
 * The current time, read again every `everyMs` while the component is shown:
 * "2 days left" becomes "Deadline passed", and Remind them comes back once its
 * 12 hours are over, without a reload. Used only by components that show such
 * a time, so the timer exists only while one is on screen.
 */
export function useNow(everyMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
