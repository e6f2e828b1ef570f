import { Box, Container, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { colors } from '../../../lib/colors';

const steps = [
  { title: 'Create & Share', text: 'Name your plan and send the link or QR code to your friends.' },
  { title: 'Vote Together', text: 'Everyone suggests ideas and picks the days they are free.' },
  { title: 'Lock It In', text: 'Pick the winning idea, set the time and place, and add it to your calendar.' },
];

export function HowItWorksSection() {
  return (
    <Box component="section" aria-labelledby="how-title" bg={colors.page} py={{ base: 48, sm: 72 }}>
      <Container size="lg">
        <Title id="how-title" order={2} ta="center" mb="xl">
          How it works
        </Title>
        <SimpleGrid component="ol" cols={{ base: 1, sm: 3 }} spacing="xl" p={0} m={0} style={{ listStyle: 'none' }}>
          {steps.map((step, index) => (
            <Stack component="li" key={step.title} align="center" ta="center" gap="xs">
              <ThemeIcon size={44} radius="xl" aria-hidden="true">
                <Text fw={800}>{index + 1}</Text>
              </ThemeIcon>
              <Title order={3} fz="h4">
                {step.title}
              </Title>
              <Text c="dimmed" maw={300}>
                {step.text}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
