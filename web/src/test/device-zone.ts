import { onTestFinished } from 'vitest';

/**
 * Puts this test's "phone" in `timeZone` (Node reads TZ as it changes, and so
 * do Date and Intl in jsdom); the zone before comes back when the test ends.
 */
export function setDeviceTimeZone(timeZone: string): void {
  const previous = process.env.TZ;
  process.env.TZ = timeZone;
  onTestFinished(() => {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  });
}
