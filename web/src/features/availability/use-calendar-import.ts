import { useEffect, useRef, useState } from 'react';
import { UNREADABLE_CALENDAR, type BusyDays, type CalendarImport } from './busy-calendar';
import { useStoredCalendarImport, writeCalendarImport } from './busy-calendar-storage';
import { deviceTimeZone, localToday, votingWindow } from './date-window';
import { CalendarReadError, readCalendarFile } from './read-calendar-file';

/** Larger files are refused before they are read: a phone would struggle, and no one's calendar needs more. */
export const MAX_CALENDAR_FILE_BYTES = 10 * 1024 * 1024;

export const CALENDAR_TOO_LARGE = 'That file is too large to import (over 10 MB).';
export const CALENDAR_NOT_SAVED =
  "Your busy days show until you leave this page, but couldn't be kept on this device (its storage is full or turned off).";

export interface CalendarImportState {
  /** The import shown: the one kept on the device, or one it could not keep. */
  calendar: CalendarImport | null;
  /** A file is being read. */
  reading: boolean;
  /** One sentence about the last import that failed (or was not kept). */
  error: string | null;
  importFile: (file: File | null) => Promise<void>;
  clear: () => void;
}

/**
 * The visitor's calendar in this plan's availability (decisions 0073, 0088): a
 * file picked on the device is read here, in the browser, by a worker of its
 * own (read-calendar-file.ts: the iCalendar reader is fetched only then, and
 * the page's thread stays free), into the busy hours of each day from today
 * to the end of the Date Picker's window; those are kept on the device for
 * the plan. The file itself is never stored or sent.
 */
export function useCalendarImport(planId: string): CalendarImportState {
  const stored = useStoredCalendarImport(planId);
  const [unsaved, setUnsaved] = useState<CalendarImport | null>(null);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The read under way, ended (its worker with it) when the screen goes.
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);

  async function importFile(file: File | null) {
    if (!file || reading) return;
    if (file.size > MAX_CALENDAR_FILE_BYTES) {
      setError(CALENDAR_TOO_LARGE);
      return;
    }
    setReading(true);
    setError(null);
    const controller = new AbortController();
    current.current = controller;
    try {
      const today = localToday();
      const { maxDate } = votingWindow(today);
      let days: BusyDays;
      try {
        days = await readCalendarFile(file, { from: today, to: maxDate, timeZone: deviceTimeZone() }, { signal: controller.signal });
      } catch (failure) {
        if (!(failure instanceof CalendarReadError)) console.warn('The calendar import failed.', failure);
        setError(failure instanceof CalendarReadError ? failure.message : UNREADABLE_CALENDAR);
        return;
      }
      const calendar: CalendarImport = {
        fileName: file.name || 'calendar.ics',
        importedAt: new Date().toISOString(),
        from: today,
        to: maxDate,
        days,
      };
      const kept = writeCalendarImport(planId, calendar);
      setUnsaved(kept ? null : calendar);
      if (!kept) setError(CALENDAR_NOT_SAVED);
    } finally {
      if (current.current === controller) current.current = null;
      setReading(false);
    }
  }

  function clear() {
    writeCalendarImport(planId, null);
    setUnsaved(null);
    setError(null);
  }

  return { calendar: unsaved ?? stored, reading, error, importFile, clear };
}
