import { Box, Container, Stack, Text, Title } from '@mantine/core';
import { MarketingClaims } from './marketing-claims';
import { StartPlanningForm } from './start-planning-form';
import { colors } from '../../../lib/colors';

export function HeroSection() {
  return (
    <Box
      component="section"
      aria-labelledby="hero-title"
      py={{ base: 48, sm: 80 }}
      style={{
        background: `linear-gradient(180deg, ${colors.tint} 0%, var(--mantine-color-body) 100%)`,
      }}
    >
      <Container size="sm">
        <Stack align="center" ta="center" gap="lg">
          <Title id="hero-title" order={1} fz={{ base: 34, sm: 52 }} lh={1.1}>
            Turn "we should hang out" into a real plan
          </Title>
          <Text fz={{ base: 'md', sm: 'lg' }} c="dimmed" maw={520}>
            Collect ideas, find a time that works for everyone and lock it in. One link, no group-chat chaos.
          </Text>
          <Box w="100%" maw={420}>
            <StartPlanningForm buttonLabel="Start Planning" />
          </Box>
          <MarketingClaims />
        </Stack>
      </Container>
    </Box>
  );
}
