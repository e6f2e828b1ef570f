import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AppLayout } from '../../../components/app-layout';
import { IconCheck } from '../../../components/icons';
import { useAddInterest, useRemoveInterest } from '../mutations';
import { interestCatalogQueryOptions, myInterestsQueryOptions } from '../queries';
import type { CatalogItem, UserInterest } from '../schema';
import { AddInterestForm } from './add-interest-form';
import { IconX, InterestIcon } from './interest-icons';

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Spec §2: an item is 'Added' when chosen from the catalogue (or typed with the same name). */
export function isCatalogItemAdded(item: CatalogItem, interests: readonly UserInterest[]): boolean {
  return interests.some((interest) => interest.catalogId === item.id || sameText(interest.freeFormText, item.name));
}

function MyInterests({ interests }: { interests: readonly UserInterest[] }) {
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
                  color="violet.9"
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

function CatalogTiles({ catalog, interests }: { catalog: readonly CatalogItem[]; interests: readonly UserInterest[] }) {
  const addInterest = useAddInterest();
  return (
    <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Suggested interests">
      {catalog.map((item) => {
        const added = isCatalogItemAdded(item, interests);
        const adding = addInterest.isPending && addInterest.variables && 'catalogId' in addInterest.variables && addInterest.variables.catalogId === item.id;
        return (
          <li key={item.id}>
            <UnstyledButton
              w="100%"
              h="100%"
              p="sm"
              bg={added ? 'violet.0' : 'white'}
              aria-label={added ? `${item.name}, added` : `Add ${item.name}`}
              aria-disabled={added || undefined}
              disabled={Boolean(adding)}
              onClick={() => {
                if (!added && !addInterest.isPending) addInterest.mutate({ catalogId: item.id, freeFormText: item.name });
              }}
              style={{
                borderRadius: 'var(--mantine-radius-lg)',
                border: `1px solid var(--mantine-color-${added ? 'violet-3' : 'gray-3'})`,
                cursor: added ? 'default' : undefined,
              }}
            >
              <Stack align="center" gap={6} ta="center">
                <Text component="span" c="violet.7" style={{ display: 'inline-flex' }}>
                  <InterestIcon name={item.icon} size={26} />
                </Text>
                <Text fz="sm" fw={600}>
                  {item.name}
                </Text>
                {added ? (
                  <Badge size="sm" color="teal.9" variant="filled" tt="none" leftSection={<IconCheck size={12} />}>
                    Added
                  </Badge>
                ) : (
                  <Text fz="xs" c="dimmed">
                    {adding ? 'Adding...' : 'Tap to add'}
                  </Text>
                )}
              </Stack>
            </UnstyledButton>
          </li>
        );
      })}
    </SimpleGrid>
  );
}

function LoadFailed({ what, onRetry, retrying }: { what: string; onRetry: () => void; retrying: boolean }) {
  return (
    <Alert color="red" title={`Couldn't load ${what}`}>
      <Button mt="xs" variant="light" color="red" onClick={onRetry} disabled={retrying}>
        Try again
      </Button>
    </Alert>
  );
}

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
