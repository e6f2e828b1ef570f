/**
 * The plan fields the calendar reads. Every plan JSON of the API has them
 * (features/plans/schema.ts `Plan` is assignable to this); they are named here
 * so that the calendar, which the plans feature uses, does not import it back.
 */
export interface CalendarPlan {
  id: string;
  /** Null for a member of a plan whose invitations are closed: the link is the host's to give. */
  slug: string | null;
  title: string;
  location?: string | null;
  eventTime?: string | null;
  /** The IANA zone eventTime is the host's wall clock in; null: floating. */
  timeZone?: string | null;
  lockedIdeaId?: string | null;
  lockedIdeaText?: string | null;
  lockedTimeSlotId?: string | null;
  /** 'YYYY-MM-DD', a calendar day with no time zone. */
  lockedTimeSlotDate?: string | null;
  lockedTimeSlot?: { date: string; period?: string | null } | null;
  /** The calendar event's revision: the .ics's SEQUENCE. */
  calendarSequence?: number;
  /** 'cancelled': the download says STATUS:CANCELLED (docs/decisions/0101-calendars-follow-the-answer.md). */
  status?: string;
}
