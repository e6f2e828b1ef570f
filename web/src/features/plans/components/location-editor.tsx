import { useState } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { LinkifiedText } from '../../../components/linkified-text';
import { useSetLocation } from '../host-mutations';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';
import { LOCATION_MAX as LOCATION_MAX_LENGTH } from '../../../../../supabase/functions/_shared/contract/common';

/** docs/api.md "Ideas, comments, votes": a location is 0-500 characters after trimming (the API's own limit). */

/**
 * Spec §2 Plan detail: the host's inline 'Set Location' / 'Edit' editor of
 * the status card's 'Where'. URLs in the saved location become links.
 */
export function LocationEditor({ plan }: { plan: Plan }) {
  const location = plan.location?.trim() ?? '';
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(location);
  const save = useSetLocation(plan.id, () => setEditing(false));

  if (!editing) {
    return (
      <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
        {location ? (
          <span style={{ minWidth: 0 }}>
            <LinkifiedText text={location} />
          </span>
        ) : (
          <Text component="span" c="dimmed" fw={400}>
            Not set yet
          </Text>
        )}
        <Button
          size="compact-sm"
          variant="light"
          style={{ flexShrink: 0 }}
          onClick={() => {
            setDraft(location);
            setEditing(true);
          }}
        >
          {location ? 'Edit' : 'Set Location'}
        </Button>
      </Group>
    );
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(draft.trim());
      }}
    >
      <Stack gap="xs" mt={4}>
        <TextInput
          aria-label="Location"
          placeholder="Enter location or share a link..."
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          maxLength={LOCATION_MAX_LENGTH}
          data-autofocus
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the host opened the inline editor to type here
          autoFocus
        />
        <Group gap="xs" justify="flex-end">
          <Button variant="default" size="compact-md" onClick={() => setEditing(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" size="compact-md" loading={save.isPending} disabled={draft.trim() === location}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
