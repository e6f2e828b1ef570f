import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AppLayout } from '../../../components/app-layout';
import { interestCatalogQueryOptions, myInterestsQueryOptions } from '../queries';
import { AddInterestForm } from './add-interest-form';
import { CatalogTiles } from './catalog-tiles';
import { LoadFailed } from './load-failed';
import { MyInterests } from './my-interests';

/** /interests (spec §2 Interests). */
export function InterestsScreen() {
  const mine = useQuery(myInterestsQueryOptions());
  const catalog = useQuery(interestCatalogQueryOptions());

  return (
    <AppLayout logoTo={paths.home.getHref()}>
      <Stack gap="lg">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Title order={1} fz="h2">
              Interests
            </Title>
            <Text c="dimmed" fz="sm">
              What you like to do. Your plans use them to suggest ideas.
            </Text>
          </div>
          <Button component={Link} to={paths.manageInterests.getHref()} variant="light" radius="xl" style={{ flexShrink: 0 }}>
            Manage
          </Button>
        </Group>

        <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="my-interests-title">
          <Stack gap="md">
            <Title id="my-interests-title" order={2} fz="h4">
              Your interests
            </Title>
            <AddInterestForm label="Add an interest" placeholder="Add an interest, e.g. Salsa dancing" />
            {mine.isPending ? (
              <Group gap="xs" role="status" aria-label="Loading your interests">
                {[80, 110, 70].map((width) => (
                  <Skeleton key={width} h={28} w={width} radius="xl" aria-hidden="true" />
                ))}
              </Group>
            ) : mine.isError ? (
              <LoadFailed what="your interests" onRetry={() => mine.refetch()} retrying={mine.isRefetching} />
            ) : (
              <MyInterests interests={mine.data} />
            )}
          </Stack>
        </Card>

        <section aria-labelledby="catalog-title">
          <Title id="catalog-title" order={2} fz="h4" mb="sm">
            Popular interests
          </Title>
          {catalog.isPending || mine.isPending ? (
            <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="sm" role="status" aria-label="Loading suggestions">
              {[0, 1, 2, 3].map((index) => (
                <Skeleton key={index} h={104} radius="lg" aria-hidden="true" />
              ))}
            </SimpleGrid>
          ) : catalog.isError ? (
            <LoadFailed what="the suggestions" onRetry={() => catalog.refetch()} retrying={catalog.isRefetching} />
          ) : (
            <CatalogTiles catalog={catalog.data} interests={mine.data ?? []} />
          )}
        </section>
      </Stack>
    </AppLayout>
  );
}
