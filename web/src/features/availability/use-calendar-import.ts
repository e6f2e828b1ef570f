import { useState } from 'react';
import type { CalendarImport } from './busy-calendar';
import { useStoredCalendarImport, writeCalendarImport } from './busy-calendar-storage';
import { deviceTimeZone, localToday, votingWindow } from './date-window';

/** Larger files are refused before they are read: a phone would struggle, and no one's calendar needs more. */
export const MAX_CALENDAR_FILE_BYTES = 10 * 1024 * 1024;

export const CALENDAR_TOO_LARGE = 'That file is too large to import (over 10 MB).';
export const CALENDAR_READER_FAILED = "Couldn't load the calendar reader. Check your connection and try again.";
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
 * The visitor's calendar in this plan's availability (decision 0073): a file
 * picked on the device is read here, in the browser, with the iCalendar
 * reader loaded only now, into the busy hours of each day from today to the
 * end of the Date Picker's window; those are kept on the device for the plan.
 * The file itself is never stored or sent.
 */
export function useCalendarImport(planId: string): CalendarImportState {
  const stored = useStoredCalendarImport(planId);
  const [unsaved, setUnsaved] = useState<CalendarImport | null>(null);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function importFile(file: File | null) {
    if (!file || reading) return;
    if (file.size > MAX_CALENDAR_FILE_BYTES) {
      setError(CALENDAR_TOO_LARGE);
      return;
    }
    setReading(true);
    setError(null);
    try {
      let parser: typeof import('./busy-calendar-parse');
      try {
        parser = await import('./busy-calendar-parse');
      } catch {
        setError(CALENDAR_READER_FAILED);
        return;
      }
      const text = await file.text();
      const today = localToday();
      const { maxDate } = votingWindow(today);
      let days;
      try {
        days = parser.busyDaysFromIcs(text, { from: today, to: maxDate, timeZone: deviceTimeZone() });
      } catch (failure) {
        if (!(failure instanceof parser.CalendarFileError)) console.warn('The calendar import failed.', failure);
        setError(failure instanceof parser.CalendarFileError ? failure.message : parser.UNREADABLE_CALENDAR);
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
    } catch {
      // The file could not be read from the device (moved, or no permission).
      setError("Couldn't read that file. Try picking it again.");
    } finally {
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
