import { Box, Group, Text } from '@mantine/core';
import { colors } from '../../../lib/colors';

/**
 * 'Step n of 3' with three segments (spec §2, §9: the flow has 3 steps, the
 * third is not shown as a page). One progressbar for assistive technology.
 */
export function StepIndicator({ step, total = 3 }: { step: number; total?: number }) {
  const label = `Step ${step} of ${total}`;
  return (
    <Group gap="sm" wrap="nowrap">
      <Group
        gap={4}
        wrap="nowrap"
        flex={1}
        role="progressbar"
        aria-label="Planning steps"
        aria-valuemin={1}
        aria-valuemax={total}
        aria-valuenow={step}
        aria-valuetext={label}
      >
        {Array.from({ length: total }, (_, index) => (
          <Box
            key={index}
            h={6}
            flex={1}
            bg={index < step ? 'violet.7' : colors.line}
            style={{ borderRadius: 999 }}
          />
        ))}
      </Group>
      <Text fz="sm" fw={600} c="dimmed" style={{ flexShrink: 0 }} aria-hidden="true">
        {label}
      </Text>
    </Group>
  );
}
