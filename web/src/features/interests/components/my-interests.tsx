import { ActionIcon, Badge, Group, Text } from '@mantine/core';
import { useRemoveInterest } from '../mutations';
import type { UserInterest } from '../../../../../supabase/functions/_shared/contract/interests';
import { IconX } from './interest-icons';

/** The visitor's own interests as chips, each with its remove button (spec §2 Interests). */
export function MyInterests({ interests }: { interests: readonly UserInterest[] }) {
  const removeInterest = useRemoveInterest();
  if (interests.length === 0) {
    return (
      <Text c="dimmed" fz="sm">
        No interests yet. Add a few so your plans can suggest ideas you'll all like.
      </Text>
    );
  }
  return (
    <Group component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Your interests">
      {interests.map((interest) => {
        const removing = removeInterest.isPending && removeInterest.variables === interest.id;
        return (
          <li key={interest.id}>
            <Badge
              size="lg"
              radius="xl"
              variant="light"
              tt="none"
              pr={4}
              style={{ maxWidth: '100%' }}
              rightSection={
                <ActionIcon
                  size="sm"
                  radius="xl"
                  variant="transparent"
                  color="violet"
                  aria-label={`Remove ${interest.freeFormText}`}
                  onClick={() => removeInterest.mutate(interest.id)}
                  disabled={removing}
                >
                  <IconX />
                </ActionIcon>
              }
            >
              {interest.freeFormText}
            </Badge>
          </li>
        );
      })}
    </Group>
  );
}
