// Its component's CSS with the screen that uses it (the profile is a lazy
// screen), not in every page's stylesheet (app/mantine-styles.ts); its
// moving indicator is Mantine's FloatingIndicator.
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/SegmentedControl.css';
import { Card, SegmentedControl, Stack, Text, Title, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';

const CHOICES: { label: string; value: MantineColorScheme }[] = [
  { label: 'System', value: 'auto' },
  { label: 'Light', value: 'light' },
  { label: 'Dark', value: 'dark' },
];

const isChoice = (value: string): value is MantineColorScheme => CHOICES.some((choice) => choice.value === value);

/**
 * Light, dark or as the phone is (docs/web-app.md "Dark mode"): Mantine's
 * colour scheme, kept on this device (app/color-scheme.ts). It applies at
 * once; on System the page follows the phone while it is open.
 */
export function AppearanceSettings() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="appearance-title">
      <Stack gap="sm">
        <Title id="appearance-title" order={2} fz="h4">
          Appearance
        </Title>
        <Text id="appearance-hint" c="dimmed" fz="sm">
          System follows your phone's light or dark setting. Your choice is kept on this device.
        </Text>
        <SegmentedControl
          fullWidth
          color="violet"
          aria-labelledby="appearance-title"
          aria-describedby="appearance-hint"
          data={CHOICES}
          value={colorScheme}
          onChange={(value) => {
            if (isChoice(value)) setColorScheme(value);
          }}
        />
      </Stack>
    </Card>
  );
}
