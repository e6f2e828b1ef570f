import { ActionIcon, Button, Group, SimpleGrid, Text } from '@mantine/core';
import { IconMinus, IconPlus } from '../../../components/icons';
import type { RsvpAnswer, RsvpState } from '../../../../../supabase/functions/_shared/contract/rsvps';

const CHOICES: ReadonlyArray<{ answer: RsvpAnswer; label: string }> = [
  { answer: 'going', label: 'Going' },
  { answer: 'maybe', label: 'Maybe' },
  { answer: 'no', label: "Can't go" },
];

interface FriendsStepperProps {
  value: number;
  max: number;
  onChange: (count: number) => void;
  disabled?: boolean;
  /** What is counted ("Friends"), with a hint under it. */
  label?: string;
  hint?: string;
  /** What 0 reads as ("Just you" with a Going; "None" in the host's settings). */
  zero?: string;
}

/** A count of friends, 0 up to `max`, in 44 px steps: the friends coming with a Going, or the host's limit. */
export function FriendsStepper({ value, max, onChange, disabled = false, label = 'Friends', hint, zero = 'Just you' }: FriendsStepperProps) {
  return (
    <Group gap="sm" wrap="nowrap" justify="space-between">
      <div>
        <Text fw={600}>{label}</Text>
        {hint && (
          <Text fz="sm" c="dimmed">
            {hint}
          </Text>
        )}
      </div>
      <Group gap="xs" wrap="nowrap" role="group" aria-label={label}>
        <ActionIcon size={44} radius="xl" variant="default" aria-label="One fewer" disabled={disabled || value <= 0} onClick={() => onChange(value - 1)}>
          <IconMinus size={18} />
        </ActionIcon>
        <Text fw={700} miw={64} ta="center" aria-live="polite">
          {value === 0 ? zero : `+${value}`}
        </Text>
        <ActionIcon size={44} radius="xl" variant="default" aria-label="One more" disabled={disabled || value >= max} onClick={() => onChange(value + 1)}>
          <IconPlus size={18} />
        </ActionIcon>
      </Group>
    </Group>
  );
}

interface AnswerChoicesProps {
  /** The answer shown as chosen (waitlist counts as Going: it was a Going). */
  current: RsvpState | null;
  onChoose: (answer: RsvpAnswer) => void;
  disabled?: boolean;
  /** The group's name for screen readers. */
  label?: string;
}

/** Going / Maybe / Can't go: three buttons a thumb hits (50 px tall), the chosen one filled and pressed. */
export function AnswerChoices({ current, onChoose, disabled = false, label = 'Your answer' }: AnswerChoicesProps) {
  const chosen = current === 'waitlist' ? 'going' : current;
  return (
    <SimpleGrid cols={3} spacing="xs" role="group" aria-label={label}>
      {CHOICES.map(({ answer, label }) => (
        <Button
          key={answer}
          size="lg"
          // One line each at 360 px: "Can't go" at the body size.
          fz="md"
          px={4}
          radius="md"
          variant={chosen === answer ? 'filled' : 'default'}
          aria-pressed={chosen === answer}
          disabled={disabled}
          onClick={() => onChoose(answer)}
          styles={{ label: { whiteSpace: 'normal' } }}
        >
          {label}
        </Button>
      ))}
    </SimpleGrid>
  );
}
