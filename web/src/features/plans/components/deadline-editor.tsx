import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { getServerMessage } from '../../../lib/api-error';
import { dateTimeLocalToIso, toDateTimeLocal } from '../deadline';
import { SAVE_DEADLINE_FAILED, useSetDeadline } from '../host-mutations';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { DEADLINE_IN_PAST } from '../../../../../supabase/functions/_shared/contract/notifications';
import { DeadlineStatus } from './deadline-status';

/** The datetime-local value of the plan's deadline, '' without one. */
function initialValue(deadline: string | null | undefined): string {
  const moment = deadline ? new Date(deadline) : null;
  return moment && !Number.isNaN(moment.getTime()) ? toDateTimeLocal(moment) : '';
}

/**
 * The host's inline "Decide by" editor in the status card (like the location's),
 * while no date is locked: a date and time in the viewer's zone, sent as an
 * ISO 8601 instant, and "Lock automatically at the deadline". A native
 * datetime-local input (the phone's own picker; @mantine/dates stays in the
 * availability tab's lazy chunk). The server's refusal shows under the field.
 */
export function DeadlineEditor({ plan }: { plan: Plan }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [autoLock, setAutoLock] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);
  const save = useSetDeadline(plan.id, () => setEditing(false));

  if (!editing) {
    return (
      <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
        {plan.deadline ? (
          <div style={{ minWidth: 0 }}>
            <DeadlineStatus plan={plan} />
          </div>
        ) : (
          <Text component="span" c="dimmed" fw={400}>
            No deadline yet
          </Text>
        )}
        <Button
          size="compact-sm"
          variant="light"
          miw={44}
          style={{ flexShrink: 0 }}
          aria-label={plan.deadline ? 'Edit deadline' : undefined}
          onClick={() => {
            setValue(initialValue(plan.deadline));
            setAutoLock(plan.autoLock ?? false);
            setLocalError(null);
            save.reset();
            setEditing(true);
          }}
        >
          {plan.deadline ? 'Edit' : 'Set deadline'}
        </Button>
      </Group>
    );
  }

  const error = localError ?? (save.isError ? (getServerMessage(save.error) ?? SAVE_DEADLINE_FAILED) : null);
  const removing = save.isPending && save.variables.deadline === null;

  return (
    <form
      // The app says what is wrong, in the server's words, not the browser's bubble.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const deadline = dateTimeLocalToIso(value);
        if (!deadline) return;
        if (Date.parse(deadline) <= Date.now()) {
          setLocalError(DEADLINE_IN_PAST);
          return;
        }
        save.mutate({ deadline, autoLock });
      }}
    >
      <Stack gap="sm" mt={4}>
        <TextInput
          type="datetime-local"
          aria-label="Decide by"
          value={value}
          min={toDateTimeLocal(new Date())}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            setLocalError(null);
            if (save.isError) save.reset();
          }}
          error={error}
          size="md"
          data-autofocus
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the host opened the inline editor to pick a time here
          autoFocus
        />
        <Checkbox
          label="Lock automatically at the deadline"
          description="The most-voted idea and date will be locked for everyone then."
          checked={autoLock}
          onChange={(event) => setAutoLock(event.currentTarget.checked)}
          size="md"
          fw={400}
        />
        <Group gap="xs" justify="space-between">
          {plan.deadline ? (
            <Button
              variant="subtle"
              color="red"
              size="compact-md"
              onClick={() => {
                setLocalError(null);
                save.mutate({ deadline: null });
              }}
              loading={removing}
              disabled={save.isPending && !removing}
            >
              Remove deadline
            </Button>
          ) : (
            <span />
          )}
          <Group gap="xs" ml="auto">
            <Button variant="default" size="compact-md" onClick={() => setEditing(false)} disabled={save.isPending}>
              Cancel
            </Button>
            <Button
              type="submit"
              size="compact-md"
              loading={save.isPending && !removing}
              disabled={!dateTimeLocalToIso(value) || removing}
            >
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
