import { useId, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconBulb } from '../../../components/icons';
import { usePlanVisitor, type PlanVisitor } from '../../guests';
import { isPlanCancelled, type Plan } from '../../plans';
import { sortIdeasByVotes, topIdeaId } from '../ideas';
import { usePickIdea } from '../mutations';
import { ideaListQueryOptions } from '../queries';
import type { Idea } from '../../../../../supabase/functions/_shared/contract/ideas';
import { IdeaCard } from './idea-card';
import { SuggestIdeaButton, SuggestionsPanel } from './suggestions-panel';

/**
 * The visitor of the plan and the plan's ideas as that visitor sees them
 * (a guest asks with ?guestId= for its own voted flags). Waits for the
 * visitor, so the list is read once, with the right identity.
 */
function useVisitorIdeas(planId: string) {
  const visitor = usePlanVisitor(planId);
  const guestId = visitor?.kind === 'guest' ? visitor.guestId : null;
  const ideas = useQuery({ ...ideaListQueryOptions(planId, guestId), enabled: visitor !== undefined });
  return { visitor, ideas };
}

function NoIdeasYet() {
  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack align="center" ta="center" gap={4}>
        <ThemeIcon variant="light" size={44} radius="xl" mb="xs" aria-hidden="true">
          <IconBulb size={22} />
        </ThemeIcon>
        <Text fw={600}>No ideas yet</Text>
        <Text c="dimmed" fz="sm">
          Be the first to suggest an idea!
        </Text>
      </Stack>
    </Card>
  );
}

function IdeasLoading() {
  return (
    <Stack gap="sm" role="status" aria-label="Loading ideas">
      {[0, 1].map((index) => (
        <Card key={index} withBorder radius="lg" padding="md" aria-hidden="true">
          <Skeleton h={18} w="70%" mb="xs" />
          <Skeleton h={28} w={90} />
        </Card>
      ))}
    </Stack>
  );
}

interface IdeaListProps {
  plan: Plan;
  ideas: readonly Idea[];
  visitor: PlanVisitor | null | undefined;
  /** The host's Pick / Picked buttons (plan page only, spec §6). */
  isHost?: boolean;
  /** The 'Top Idea' badge on the leader with at least 1 vote. */
  showTopIdea?: boolean;
}

/** Ideas by votes, most first, as cards; 'Host's Pick' on the plan's picked idea. */
function IdeaList({ plan, ideas, visitor, isHost = false, showTopIdea = false }: IdeaListProps) {
  const sorted = sortIdeasByVotes(ideas);
  const top = showTopIdea ? topIdeaId(sorted) : null;
  const pickIdea = usePickIdea(plan);
  const frozen = isPlanCancelled(plan);
  if (sorted.length === 0) return <NoIdeasYet />;
  return (
    <Stack gap="sm">
      {sorted.map((idea) => (
        <IdeaCard
          key={idea.id}
          plan={plan}
          idea={idea}
          visitor={visitor}
          isTop={idea.id === top}
          frozen={frozen}
          // The host sees 'Picked' on the button instead.
          isHostsPick={!isHost && idea.id === plan.lockedIdeaId}
          pick={
            isHost
              ? {
                  picked: idea.id === plan.lockedIdeaId,
                  pending: pickIdea.isPending,
                  onPick: () => pickIdea.mutate(idea.id),
                }
              : undefined
          }
        />
      ))}
    </Stack>
  );
}

interface IdeasBoardProps {
  plan: Plan;
  isHost?: boolean;
  showTopIdea?: boolean;
  /** The add form; it receives the 'Suggest Idea' button to place. */
  renderForm: (args: { visitor: PlanVisitor | null | undefined; suggestButton: ReactNode }) => ReactNode;
  /** Form above the list (plan page) or below it (dashboard, ideas page). */
  formFirst?: boolean;
}

/** Add form, 'Suggest Idea' panel and the idea list of one plan, for the visitor. */
export function IdeasBoard({ plan, isHost, showTopIdea, renderForm, formFirst = false }: IdeasBoardProps) {
  const { visitor, ideas } = useVisitorIdeas(plan.id);
  const [panelOpen, setPanelOpen] = useState(false);
  const panelId = useId();

  // A cancelled plan takes no new ideas (docs/decisions/0100-cancelling-a-plan.md).
  const frozen = isPlanCancelled(plan);
  const form =
    !frozen &&
    renderForm({
      visitor,
      suggestButton: <SuggestIdeaButton open={panelOpen} panelId={panelId} onToggle={() => setPanelOpen((open) => !open)} />,
    });
  const panel = !frozen && panelOpen && (
    <SuggestionsPanel id={panelId} plan={plan} ideas={ideas.data ?? []} visitor={visitor} onDone={() => setPanelOpen(false)} />
  );
  // Ideas already shown stay (open threads, typed comments) if a background refetch fails.
  const list = ideas.data ? (
    <IdeaList plan={plan} ideas={ideas.data} visitor={visitor} isHost={isHost} showTopIdea={showTopIdea} />
  ) : ideas.isError ? (
    <Alert color="red" title="Couldn't load the ideas">
      <Button mt="xs" variant="light" color="red" onClick={() => ideas.refetch()} disabled={ideas.isRefetching}>
        Try again
      </Button>
    </Alert>
  ) : (
    <IdeasLoading />
  );

  return formFirst ? (
    <Stack gap="md">
      {form}
      {panel}
      {list}
    </Stack>
  ) : (
    <Stack gap="md">
      {list}
      {form}
      {panel}
    </Stack>
  );
}
