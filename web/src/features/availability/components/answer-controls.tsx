import { useId } from 'react';
import { Box, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { Icon, type IconProps } from '../../../components/icons';
import { PendingMark } from '../../../components/pending-mark';
import type { DateAnswer } from '../../../../../supabase/functions/_shared/contract/dates';

// The screens' controls for a date's answers (docs/decisions/0109-if-need-be-on-the-screens.md):
// what a tap says ("Yes", spec §2's tap, or "If need be") and "None of these
// dates work for me".

/** "If need be": a question mark in a circle, beside the words that say it. */
export const IconIfNeedBe = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 17v.01" />
    <path d="M12 13.5a1.5 1.5 0 0 1 1 -1.5a2.6 2.6 0 1 0 -3 -4" />
  </Icon>
);

const ANSWER_CHOICES: { value: DateAnswer; label: string }[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'ifneedbe', label: 'If need be' },
];

/**
 * What a tap on a day says: "Yes" unless the visitor switches to "If need be"
 * (radio buttons: a thumb taps one, a keyboard moves with the arrows).
 */
export function AnswerSwitch({ value, onChange, disabled }: { value: DateAnswer; onChange: (answer: DateAnswer) => void; disabled?: boolean }) {
  return (
    <SegmentedControl
      aria-label="A tap says"
      data={ANSWER_CHOICES}
      value={value}
      onChange={(next) => onChange(next as DateAnswer)}
      disabled={disabled}
      fullWidth
      radius="xl"
      mb="sm"
      // A thumb's 44 px on every screen (docs/decisions/0109-if-need-be-on-the-screens.md): the labels are what is tapped.
      styles={{ label: { minHeight: 44, display: 'flex', alignItems: 'center', justifyContent: 'center' } }}
    />
  );
}

interface NoDatesToggleProps {
  checked: boolean;
  onToggle: () => void;
  /** On its way: a second tap waits. */
  pending: boolean;
  /** Kept on the device until the network is back. */
  waiting: boolean;
}

/** "None of these dates work for me": on, the visitor counts as answered and the host sees it. */
export function NoDatesToggle({ checked, onToggle, pending, waiting }: NoDatesToggleProps) {
  const noteId = useId();
  return (
    <Stack gap={4}>
      <Switch
        checked={checked}
        onChange={onToggle}
        aria-busy={pending || undefined}
        // Said under the switch, not inside its label: the switch's name stays the choice itself.
        aria-describedby={checked ? noteId : undefined}
        label="None of these dates work for me"
        size="md"
      />
      {checked && (
        <Text id={noteId} fz="sm" c="dimmed">
          The host sees that you can't make any of these.
        </Text>
      )}
      {waiting && (
        <Box>
          <PendingMark label="Your answer is waiting for connection" />
        </Box>
      )}
    </Stack>
  );
}
