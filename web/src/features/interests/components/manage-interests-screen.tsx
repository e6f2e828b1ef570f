import { useState } from 'react';
import { Accordion, ActionIcon, Alert, Badge, Button, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AppLayout } from '../../../components/app-layout';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IconArrowLeft, IconTrash } from '../../../components/icons';
import { groupByCategory, interestCategory, type InterestCategory } from '../categories';
import { useRemoveInterest } from '../mutations';
import { myInterestsQueryOptions } from '../queries';
import type { UserInterest } from '../../../../../supabase/functions/_shared/contract/interests';
import { AddInterestForm } from './add-interest-form';

/** What each category's add field suggests typing (so the keywords place it there). */
const EXAMPLES: Record<InterestCategory, string> = {
  'Indoor Activities': 'e.g. Board games',
  Dining: 'e.g. Sushi',
  'Outdoor Activities': 'e.g. Hiking',
  'Online Activities': 'e.g. Online gaming',
  Other: 'e.g. Volunteering',
};

function CategoryList({ interests, onRemove }: { interests: readonly UserInterest[]; onRemove: (interest: UserInterest) => void }) {
  if (interests.length === 0) {
    return (
      <Text c="dimmed" fz="sm">
        Nothing here yet.
      </Text>
    );
  }
  return (
    <Stack component="ul" gap={4} m={0} p={0} style={{ listStyle: 'none' }}>
      {interests.map((interest) => (
        <Group component="li" key={interest.id} justify="space-between" wrap="nowrap" gap="xs">
          <Text style={{ overflowWrap: 'anywhere' }}>{interest.freeFormText}</Text>
          <ActionIcon
            variant="subtle"
            color="red.9"
            size="lg"
            aria-label={`Remove ${interest.freeFormText}`}
            onClick={() => onRemove(interest)}
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
      ))}
    </Stack>
  );
}

/** /interests/manage (spec §2 Manage Interests): the interests by category, add per category, remove with a confirm. */
export function ManageInterestsScreen() {
  const mine = useQuery(myInterestsQueryOptions());
  const [open, setOpen] = useState<string[]>([]);
  const [toRemove, setToRemove] = useState<UserInterest | null>(null);
  const removeInterest = useRemoveInterest({ onRemoved: () => setToRemove(null) });

  // Categories are derived from the text: a new interest may land in another
  // category than the one it was typed in, which is then opened too.
  const reveal = (interest: UserInterest) => {
    const category = interestCategory(interest.freeFormText);
    setOpen((current) => (current.includes(category) ? current : [...current, category]));
  };

  return (
    <AppLayout logoTo={paths.home.getHref()}>
      <Stack gap="lg">
        <Group gap="sm" wrap="nowrap">
          <ActionIcon component={Link} to={paths.interests.getHref()} variant="subtle" color="gray.8" size="lg" radius="xl" aria-label="Back to Interests">
            <IconArrowLeft />
          </ActionIcon>
          <Title order={1} fz="h2">
            Manage Interests
          </Title>
        </Group>

        {mine.isPending ? (
          <Stack gap="xs" role="status" aria-label="Loading your interests">
            {[0, 1, 2, 3, 4].map((index) => (
              <Skeleton key={index} h={52} radius="md" aria-hidden="true" />
            ))}
          </Stack>
        ) : mine.isError ? (
          <Alert color="red" title="Couldn't load your interests">
            <Button mt="xs" variant="light" color="red" onClick={() => mine.refetch()} disabled={mine.isRefetching}>
              Try again
            </Button>
          </Alert>
        ) : (
          <Accordion multiple value={open} onChange={setOpen} variant="separated" radius="lg">
            {groupByCategory(mine.data).map(({ category, interests }) => (
              <Accordion.Item key={category} value={category} bg="var(--mantine-color-body)">
                <Accordion.Control>
                  <Group justify="space-between" wrap="nowrap" pr="xs">
                    <Text fw={600}>{category}</Text>
                    <Badge variant="light" radius="xl" aria-hidden="true">
                      {interests.length}
                    </Badge>
                    <VisuallyHidden>{`, ${interests.length} ${interests.length === 1 ? 'interest' : 'interests'}`}</VisuallyHidden>
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>
                  <Stack gap="sm">
                    <CategoryList interests={interests} onRemove={setToRemove} />
                    <AddInterestForm label={`Add to ${category}`} placeholder={EXAMPLES[category]} onAdded={reveal} />
                  </Stack>
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        )}
      </Stack>

      <ConfirmDialog
        opened={toRemove !== null}
        onClose={() => setToRemove(null)}
        onConfirm={() => toRemove && removeInterest.mutate(toRemove.id)}
        title="Remove interest?"
        message="This will permanently remove this interest from your profile."
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={removeInterest.isPending}
      />
    </AppLayout>
  );
}
