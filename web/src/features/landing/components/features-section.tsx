import type { ReactNode } from 'react';
import { Card, Container, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBulb, IconCalendar, IconUsers } from '../../../components/icons';

const features: { title: string; text: string; icon: ReactNode }[] = [
  {
    title: 'Collect Ideas',
    text: 'Everyone suggests what to do and votes for their favourites. The best idea rises to the top.',
    icon: <IconBulb size={24} />,
  },
  {
    title: 'Find Common Time',
    text: 'Friends mark the days they are free, so you see at a glance when most people can make it.',
    icon: <IconCalendar size={24} />,
  },
  {
    title: 'Include Everyone',
    text: 'Anyone with the link can join with just their name: no account, no app to install.',
    icon: <IconUsers size={24} />,
  },
];

export function FeaturesSection() {
  return (
    <Container component="section" aria-labelledby="features-title" size="lg" py={{ base: 48, sm: 72 }}>
      <Title id="features-title" order={2} ta="center" mb="xl">
        Everything your group needs
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {features.map((feature) => (
          <Card key={feature.title} withBorder radius="lg" padding="lg">
            <ThemeIcon size={48} radius="md" variant="light">
              {feature.icon}
            </ThemeIcon>
            <Title order={3} fz="h4" mt="md">
              {feature.title}
            </Title>
            <Text c="dimmed" mt={6}>
              {feature.text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}
