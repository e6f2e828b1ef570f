import { useMemo, useState } from 'react';
import { Alert, Button, Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatLongDate } from '../../../lib/local-date';
import { showSuccessToast } from '../../../lib/toast';
import { isPlanCancelled, useLockDate } from '../../plans';
import type { Plan } from '../../plans';
import { localToday, nextTwoWeeks } from '../date-window';
import { useMyDateAnswers } from '../my-votes';
import { useNoDates } from '../no-dates';
import type { DateAnswer, TimeSlot } from '../../../../../supabase/functions/_shared/contract/dates';
import { timeSlotsQueryOptions } from '../queries';
import { useCalendarImport } from '../use-calendar-import';
import { useDateVoting } from '../vote-mutations';
import { NoDatesToggle } from './answer-controls';
import { CalendarImportControl } from './calendar-import';
import { DateList } from './date-list';
import { DatePickerPanel } from './date-picker-panel';
import { NextTwoWeeks } from './next-two-weeks';

/** Spec §2: no 'Pick Date' once a date is locked or the time is set. */
const LOCKED_STATUSES = new Set(['completed', 'date_locked', 'time_range_locked']);

const isDateLocked = (plan: Pick<Plan, 'status' | 'lockedTimeSlotDate'>) =>
  Boolean(plan.lockedTimeSlotDate) && (plan.status === 'time_range_locked' || plan.status === 'date_locked');

interface AvailabilityContentProps {
  plan: Plan;
  /** Host controls ('Pick Date'): the plan page and /l/{slug}/availability only (spec §6). */
  isHost: boolean;
  /** 1 on the availability page, where 'When are you free?' is the page's title. */
  headingOrder?: 1 | 2;
}

function AvailabilityLoading() {
  return (
    <Stack gap="sm" role="status" aria-label="Loading availability">
      <Skeleton h={24} w="60%" aria-hidden="true" />
      <Card withBorder radius="lg" padding="md" aria-hidden="true">
        <Skeleton h={150} />
      </Card>
      <Card withBorder radius="lg" padding="md" aria-hidden="true">
        <Skeleton h={28} />
      </Card>
    </Stack>
  );
}

/**
 * 'When are you free?' (spec §2): the 'Next 2 Weeks' picker, the expandable
 * 'Date Picker' and the dates people are free on with their voters; the host
 * picks a date here. Shared by the plan tab, the guest dashboard and the
 * availability pages.
 */
export function AvailabilityContent({ plan, isHost, headingOrder = 2 }: AvailabilityContentProps) {
  const slotsQuery = useQuery(timeSlotsQueryOptions(plan.id));
  const { visitor, vote, pendingVote, waiting } = useDateVoting(plan);
  const mine = useMyDateAnswers(plan.id, visitor);
  const noDates = useNoDates(plan.id, visitor);
  // What a tap says: yes (spec §2) unless the visitor switches to "if need be" (docs/decisions/0109-if-need-be-on-the-screens.md).
  const [answer, setAnswer] = useState<DateAnswer>('yes');
  const lockDate = useLockDate(plan.id);
  const today = localToday();
  const days = useMemo(() => nextTwoWeeks(today), [today]);
  const calendarImport = useCalendarImport(plan.id);

  const slots = slotsQuery.data;
  const wholeDays = useMemo(
    () => new Map((slots ?? []).filter((slot) => !slot.period).map((slot) => [slot.date, slot] as const)),
    [slots],
  );
  const myDates = useMemo(
    () =>
      new Map(
        [...wholeDays.values()].flatMap((slot) => {
          const given = mine.answers.get(slot.id);
          return given ? [[slot.date, given] as const] : [];
        }),
      ),
    [wholeDays, mine.answers],
  );
  const listed = useMemo(
    () =>
      (slots ?? []).filter(
        (slot) =>
          (slot.voteCount > 0 || (slot.ifNeedBeCount ?? 0) > 0 || mine.answers.has(slot.id)) &&
          (slot.date >= today || slot.date === plan.lockedTimeSlotDate),
      ),
    [slots, mine.answers, today, plan.lockedTimeSlotDate],
  );

  if (slotsQuery.isPending) return <AvailabilityLoading />;
  // Slots already shown stay if a background refetch fails.
  if (slotsQuery.isError && !slots) {
    return (
      <Alert color="red" title="Couldn't load the dates">
        <Button mt="sm" variant="light" color="red" onClick={() => slotsQuery.refetch()} disabled={slotsQuery.isRefetching}>
          Try again
        </Button>
      </Alert>
    );
  }

  const voteDate = (date: string) => vote({ kind: 'date', date }, answer);
  const toggleSlot = (slot: TimeSlot) =>
    void vote(slot.period ? { kind: 'slot', slotId: slot.id, date: slot.date } : { kind: 'date', date: slot.date }, answer);
  const pickDate = (date: string) =>
    lockDate.mutate(date, {
      onSuccess: () => showSuccessToast('Date picked!', `${formatLongDate(date)}. Now set the event time.`),
    });
  const locked = isDateLocked(plan) ? plan.lockedTimeSlotDate : null;
  // A cancelled plan: the dates people chose stay in view, nothing to vote on (docs/decisions/0100-cancelling-a-plan.md).
  const frozen = isPlanCancelled(plan);
  const busyDays = calendarImport.calendar?.days;
  const busyOn = (date: string) => busyDays?.[date];

  return (
    <Stack gap="md">
      <div>
        <Title order={headingOrder} fz={headingOrder === 1 ? 'h2' : 'h3'}>
          When are you free?
        </Title>
        <Text c="dimmed" fz="sm">
          Mark every day that works for you. The host picks the date everyone can make.
        </Text>
      </div>
      {locked && !isHost && (
        <Alert color="teal" variant="light" title="The host picked a date">
          {formatLongDate(locked)}. The time is coming soon.
        </Alert>
      )}
      {frozen && (
        <Alert color="red" variant="light" title="Cancelled">
          This plan was cancelled.
        </Alert>
      )}
      {!frozen && (
        <>
          <NextTwoWeeks
            days={days}
            slotsByDate={wholeDays}
            myAnswers={mine.answers}
            answer={answer}
            onAnswerChange={setAnswer}
            pendingVote={(date) => pendingVote({ kind: 'date', date })}
            onToggle={(date) => void voteDate(date)}
            waiting={waiting}
            lockedDate={locked}
            busyOn={busyOn}
            showBusy={Boolean(busyDays)}
          />
          {visitor && <NoDatesToggle checked={mine.noDates} onToggle={() => void noDates.toggle()} pending={noDates.pending} waiting={noDates.waiting} />}
          <CalendarImportControl state={calendarImport} today={today} />
          <DatePickerPanel today={today} myDates={myDates} answer={answer} voteDate={voteDate} busyOn={busyOn} />
        </>
      )}
      <DateList
        planId={plan.id}
        slots={listed}
        myAnswers={mine.answers}
        pendingVote={(slot) =>
          pendingVote(slot.period ? { kind: 'slot', slotId: slot.id, date: slot.date } : { kind: 'date', date: slot.date })
        }
        onToggle={toggleSlot}
        canPickDate={isHost && !LOCKED_STATUSES.has(plan.status) && !frozen}
        onPickDate={pickDate}
        pickingDate={lockDate.isPending ? (lockDate.variables ?? null) : null}
        lockedDate={locked}
        frozen={frozen}
      />
    </Stack>
  );
}
