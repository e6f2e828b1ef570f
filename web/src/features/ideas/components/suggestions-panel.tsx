import { useId, useState } from 'react';
import { Badge, Button, Card, Group, Loader, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconCheck, IconPlus } from '../../../components/icons';
import { votesLabel } from '../../../lib/voters';
import type { PlanVisitor } from '../../guests';
import type { Plan } from '../../plans';
import { useAddSuggestions } from '../mutations';
import { activitySuggestionsQueryOptions } from '../queries';
import type { Idea } from '../../../../../supabase/functions/_shared/contract/ideas';
import { buildPanelSuggestions, type Suggestion } from '../suggestions';
import { IconSparkles } from './idea-icons';
import { colors } from '../../../lib/colors';

/** The 'Suggest Idea' button that opens and closes the panel. */
export function SuggestIdeaButton({ open, panelId, onToggle }: { open: boolean; panelId: string; onToggle: () => void }) {
  return (
    <Button
      variant="light"
      leftSection={<IconSparkles size={16} />}
      aria-expanded={open}
      aria-controls={open ? panelId : undefined}
      onClick={onToggle}
    >
      Suggest Idea
    </Button>
  );
}

interface SuggestionsPanelProps {
  id: string;
  plan: Pick<Plan, 'id' | 'slug'>;
  ideas: readonly Idea[];
  visitor: PlanVisitor | null | undefined;
  onDone: () => void;
}

const keyOf = (suggestion: Suggestion) => suggestion.ideaId ?? `text:${suggestion.text}`;

/**
 * 'Ideas based on common interests' (spec §2, §4): the server's suggestions,
 * else the fallbacks (suggestions.ts), at most 3. A tap selects or unselects;
 * Add sends every selected one.
 */
export function SuggestionsPanel({ id, plan, ideas, visitor, onDone }: SuggestionsPanelProps) {
  const titleId = useId();
  const server = useQuery(activitySuggestionsQueryOptions(plan.id));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const addSuggestions = useAddSuggestions(plan, visitor);

  const viewer = visitor?.kind === 'guest' ? { guestId: visitor.guestId } : visitor ? { userId: visitor.userId } : null;
  // A failed call falls back silently (spec §7).
  const serverTexts = server.isError ? undefined : server.data;
  const suggestions = buildPanelSuggestions({ server: serverTexts, ideas, viewer });
  const chosen = suggestions.filter((suggestion) => selected.has(keyOf(suggestion)));

  const toggle = (key: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const add = () => {
    if (chosen.length === 0 || addSuggestions.isPending) return;
    addSuggestions.mutate(chosen, {
      onSuccess: ({ failures }) => {
        setSelected(new Set());
        if (failures.length === 0) onDone();
      },
    });
  };

  return (
    <Card id={id} withBorder radius="lg" padding="md" bg={colors.tint} component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconSparkles size={18} />
          <Title id={titleId} order={3} fz="h5">
            Ideas based on common interests
          </Title>
        </Group>
        {server.isPending ? (
          <Group gap="xs" role="status" aria-label="Loading suggestions">
            <Loader size="xs" aria-hidden="true" />
            <Text fz="sm" c="dimmed">
              Finding ideas...
            </Text>
          </Group>
        ) : (
          <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Suggestions">
            {suggestions.map((suggestion) => {
              const key = keyOf(suggestion);
              const isSelected = selected.has(key);
              return (
                <li key={key}>
                  <UnstyledButton
                    w="100%"
                    p="sm"
                    bg={isSelected ? colors.tintSelected : 'var(--mantine-color-body)'}
                    aria-pressed={isSelected}
                    onClick={() => toggle(key)}
                    disabled={addSuggestions.isPending}
                    style={{
                      borderRadius: 'var(--mantine-radius-md)',
                      border: `1px solid ${isSelected ? colors.accentText : colors.line}`,
                    }}
                  >
                    <Group gap="sm" wrap="nowrap" justify="space-between">
                      <Text fz="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {suggestion.text}
                      </Text>
                      <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
                        {suggestion.source === 'popular' && (
                          <Badge size="sm" variant="outline" color="gray" tt="none">
                            {suggestion.voteCount ? votesLabel(suggestion.voteCount) : 'Popular'}
                          </Badge>
                        )}
                        <Text c={isSelected ? colors.accentText : 'dimmed'} component="span" style={{ display: 'inline-flex' }}>
                          {isSelected ? <IconCheck size={18} /> : <IconPlus size={18} />}
                        </Text>
                      </Group>
                    </Group>
                  </UnstyledButton>
                </li>
              );
            })}
          </Stack>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onDone} disabled={addSuggestions.isPending}>
            Close
          </Button>
          <Button onClick={add} disabled={chosen.length === 0 || addSuggestions.isPending}>
            {addSuggestions.isPending ? 'Adding...' : 'Add'}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
