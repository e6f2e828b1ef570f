// Where the busy hours of an imported calendar are kept on this device
// (decision 0073): one localStorage item per plan, `calendarImport:{planId}`.
// features/availability reads and writes them (busy-calendar-storage.ts);
// here are their keys and their end, so the floors below it can forget them
// too: a plan's when its person leaves it or it is deleted, every plan's when
// the member signs out or deletes the account.

const PREFIX = 'calendarImport:';

export const calendarImportKey = (planId: string) => `${PREFIX}${planId}`;

export const isCalendarImportKey = (key: string) => key.startsWith(PREFIX);

/** Forgets the import kept for `planId`, or with no plan every import on this device. Never fails. */
export function forgetCalendarImports(planId?: string): void {
  try {
    const keys =
      planId === undefined
        ? Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)).filter(
            (key): key is string => key !== null && isCalendarImportKey(key),
          )
        : [calendarImportKey(planId)];
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // Storage blocked: nothing was kept.
  }
}
