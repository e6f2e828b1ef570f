import { Badge, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCheck } from '../../../components/icons';
import { useAddInterest } from '../mutations';
import type { CatalogItem, UserInterest } from '../../../../../supabase/functions/_shared/contract/interests';
import { InterestIcon } from './interest-icons';
import { colors } from '../../../lib/colors';

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Spec §2: an item is 'Added' when chosen from the catalogue (or typed with the same name). */
function isCatalogItemAdded(item: CatalogItem, interests: readonly UserInterest[]): boolean {
  return interests.some((interest) => interest.catalogId === item.id || sameText(interest.freeFormText, item.name));
}

/** The catalogue's tiles: tap to add, 'Added' once chosen (spec §2 Interests). */
export function CatalogTiles({ catalog, interests }: { catalog: readonly CatalogItem[]; interests: readonly UserInterest[] }) {
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
              bg={added ? colors.tint : 'var(--mantine-color-body)'}
              aria-label={added ? `${item.name}, added` : `Add ${item.name}`}
              aria-disabled={added || undefined}
              disabled={Boolean(adding)}
              onClick={() => {
                if (!added && !addInterest.isPending) addInterest.mutate({ catalogId: item.id, freeFormText: item.name });
              }}
              style={{
                borderRadius: 'var(--mantine-radius-lg)',
                border: `1px solid ${added ? colors.tintBorder : colors.line}`,
                cursor: added ? 'default' : undefined,
              }}
            >
              <Stack align="center" gap={6} ta="center">
                <Text component="span" c={colors.accentText} style={{ display: 'inline-flex' }}>
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
