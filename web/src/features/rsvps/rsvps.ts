// Who's coming, as the screens say it (docs/api-after-the-date.md "Who's coming",
// docs/decisions/0103-whos-coming-on-the-screens.md): pure rules and texts.
import type { Plan } from '../../../../supabase/functions/_shared/contract/plans';
import type { RsvpState, Rsvps } from '../../../../supabase/functions/_shared/contract/rsvps';

/**
 * The statuses with a locked date, where answers are open (a date locked,
 * the time set; `date_locked` is read as the former). Not `planning` and not
 * a cancelled plan.
 */
const ANSWERING: ReadonlySet<string> = new Set(['time_range_locked', 'date_locked', 'completed']);

export function answersOpen(plan: Pick<Plan, 'status'>): boolean {
  return ANSWERING.has(plan.status);
}

/** The plan JSON's `answers` (null before a date is locked). */
export interface AnswerCounts {
  going: number;
  maybe: number;
  headcount: number;
}

/** "5 going", "5 going, 2 maybe", and with friends "5 going, 2 maybe · 7 with friends". */
export function answersLine({ going, maybe, headcount }: AnswerCounts): string {
  const counts = maybe > 0 ? `${going} going, ${maybe} maybe` : `${going} going`;
  return headcount > going ? `${counts} · ${headcount} with friends` : counts;
}

/** The home card's line: "5 going". */
export const goingLine = ({ going }: Pick<AnswerCounts, 'going'>) => `${going} going`;

const friends = (count: number) => `${count} ${count === 1 ? 'friend' : 'friends'}`;

/** "You're on the waitlist: #3". */
export const waitlistLine = (position: number) => `You're on the waitlist: #${position}`;

/** The caller's own answer, as the card says it once given. */
export function myAnswerLine(mine: { answer: RsvpState | null; plusOnes: number; position: number | null }): string | null {
  switch (mine.answer) {
    case 'going':
      return mine.plusOnes > 0 ? `You're going with ${friends(mine.plusOnes)}` : "You're going";
    case 'maybe':
      return 'You said maybe';
    case 'no':
      return "You can't go";
    case 'waitlist':
      return mine.position === null ? "You're on the waitlist" : waitlistLine(mine.position);
    default:
      return null;
  }
}

/** Someone's answer in the people list: "Going +2", "Maybe", "Can't go", "Waitlist #3", or null (no answer). */
export function answerLabel({ answer, plusOnes, position }: { answer: RsvpState | null; plusOnes: number; position: number | null }): string | null {
  switch (answer) {
    case 'going':
      return plusOnes > 0 ? `Going +${plusOnes}` : 'Going';
    case 'maybe':
      return 'Maybe';
    case 'no':
      return "Can't go";
    case 'waitlist':
      return position === null ? 'Waitlist' : `Waitlist #${position}`;
    default:
      return null;
  }
}

/** Whether the caller is asked: answers open and no answer (never given, or reset by a new date). */
export function isAsked(rsvps: Pick<Rsvps, 'mine' | 'askAgain'>): boolean {
  return rsvps.askAgain || !rsvps.mine?.answer;
}

/** Every spot is taken: a new Going goes to the waitlist. */
export function isFull({ capacity, headcount }: Pick<Rsvps, 'capacity' | 'headcount'>): boolean {
  return capacity !== null && headcount >= capacity;
}

/**
 * The participants in the order of GET rsvps' people (going in answer order,
 * maybe, waitlist, can't go, then who has not answered); anyone the answers
 * do not list yet (joined since) keeps their place after them.
 */
export function goingFirst<T extends { id: string }>(participants: readonly T[], people: ReadonlyArray<{ participantId: string }> | undefined): T[] {
  if (!people) return [...participants];
  const rank = new Map(people.map((person, index) => [person.participantId, index]));
  return participants
    .map((participant, index) => ({ participant, at: rank.get(participant.id) ?? people.length + index }))
    .sort((a, b) => a.at - b.at)
    .map(({ participant }) => participant);
}

/** The host's settings at a glance: "5 of 12 spots taken · up to 2 friends each", "No limit on spots · no friends". */
export function spotsLine({ capacity, headcount, maxPlusOnes }: Pick<Rsvps, 'capacity' | 'headcount' | 'maxPlusOnes'>): string {
  const spots = capacity === null ? 'No limit on spots' : `${headcount} of ${capacity} spots taken`;
  const each = maxPlusOnes === 0 ? 'no friends' : `up to ${friends(maxPlusOnes)} each`;
  return `${spots} · ${each}`;
}

/** A number of spots as typed: a whole number from 1 to `max`, else null. */
export function parseSpots(text: string, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const spots = Number(text);
  return spots >= 1 && spots <= max ? spots : null;
}

/** Under the friends stepper: "Up to 2 friends". */
export const friendsHint = (max: number) => `Up to ${friends(max)}`;
