// Where an imported calendar is kept: localStorage `calendarImport:{planId}`,
// one item per plan, holding only the busy hours of each day (busy-calendar.ts
// CalendarImport: no event, title or place), until the visitor clears it.
// Components read it through useStoredCalendarImport(), which follows changes
// from this tab and from others. Its keys, and forgetting them when a plan is
// left or at sign-out, are lib/calendar-imports.ts's.
import { useCallback, useSyncExternalStore } from 'react';
import { calendarImportKey, isCalendarImportKey } from '../../lib/calendar-imports';
import { MINUTES_PER_DAY, type BusyDays, type BusyRange, type CalendarImport } from './busy-calendar';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const isRange = (value: unknown): value is BusyRange =>
  Array.isArray(value) &&
  value.length === 2 &&
  value.every((n) => Number.isInteger(n) && n >= 0 && n <= MINUTES_PER_DAY) &&
  value[0] < value[1];

function isDays(value: unknown): value is BusyDays {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([date, ranges]) => ISO_DATE.test(date) && Array.isArray(ranges) && ranges.length > 0 && ranges.every(isRange),
  );
}

function parse(raw: string | null): CalendarImport | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<CalendarImport> | null;
    const ok =
      value &&
      typeof value.fileName === 'string' &&
      typeof value.importedAt === 'string' &&
      typeof value.from === 'string' &&
      ISO_DATE.test(value.from) &&
      typeof value.to === 'string' &&
      ISO_DATE.test(value.to) &&
      isDays(value.days);
    return ok ? (value as CalendarImport) : null;
  } catch {
    return null; // unreadable or corrupt: as if nothing were imported
  }
}

const listeners = new Set<() => void>();
// Snapshots must be referentially stable between changes: one parse per stored text.
const snapshots = new Map<string, { raw: string | null; value: CalendarImport | null }>();

function readRaw(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function readCalendarImport(planId: string): CalendarImport | null {
  const key = calendarImportKey(planId);
  const raw = readRaw(key);
  const cached = snapshots.get(key);
  if (cached && cached.raw === raw) return cached.value;
  const value = parse(raw);
  snapshots.set(key, { raw, value });
  return value;
}

/**
 * Keeps (or, with null, forgets) a plan's import on this device. False when
 * the browser refused to store it (storage full, or turned off).
 */
export function writeCalendarImport(planId: string, value: CalendarImport | null): boolean {
  const key = calendarImportKey(planId);
  let stored = true;
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    stored = false;
  }
  for (const listener of listeners) listener();
  return stored;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || isCalendarImportKey(event.key)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The plan's import kept on this device, or null; re-renders when it changes here or in another tab. */
export function useStoredCalendarImport(planId: string): CalendarImport | null {
  const getSnapshot = useCallback(() => readCalendarImport(planId), [planId]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
