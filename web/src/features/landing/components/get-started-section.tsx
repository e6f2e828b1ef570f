import { Box, Container, Stack, Text, Title } from '@mantine/core';
import { StartPlanningForm } from './start-planning-form';

export function GetStartedSection() {
  return (
    <Container component="section" aria-labelledby="get-started-title" size="sm" py={{ base: 48, sm: 72 }}>
      <Stack align="center" ta="center" gap="md">
        <Title id="get-started-title" order={2}>
          Ready to make it happen?
        </Title>
        <Text c="dimmed">Start planning in 30 seconds. It's free and no credit card is required.</Text>
        <Box w="100%" maw={420}>
          <StartPlanningForm buttonLabel="Get Started Free" />
        </Box>
      </Stack>
    </Container>
  );
}
