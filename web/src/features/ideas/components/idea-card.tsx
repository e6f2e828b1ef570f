import { useId, useState } from 'react';
import { ActionIcon, Badge, Box, Button, Card, Group, Stack, Text } from '@mantine/core';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IconCheck, IconTrash } from '../../../components/icons';
import { PendingMark } from '../../../components/pending-mark';
import { VoterAvatars } from '../../../components/voter-avatars';
import { votesLabel } from '../../../lib/voters';
import type { PlanVisitor } from '../../guests';
import { usePlanRole, type Plan } from '../../plans';
import { mayDelete } from '../ideas';
import { useDeleteIdea } from '../mutations';
import { ideaVotersQueryOptions } from '../queries';
import { useVoteOnIdea } from '../vote-mutations';
import type { Idea } from '../../../../../supabase/functions/_shared/contract/ideas';
import { CommentsToggle, CommentThread } from './idea-comments';
import { IconCrown, IconThumbUp, IconTrophy } from './idea-icons';

// Orange 9 (#d9480f) under white badge text is 4.3:1; this orange is 5.2:1 (WCAG AA).
const TOP_IDEA_ORANGE = '#c2410c';

interface IdeaCardProps {
  plan: Pick<Plan, 'id' | 'slug' | 'hostId'>;
  idea: Idea;
  visitor: PlanVisitor | null | undefined;
  /** The 'Top Idea' badge (plan page, ideas page). */
  isTop?: boolean;
  /** The 'Host's Pick' badge. */
  isHostsPick?: boolean;
  /** Host only: the 'Pick' / 'Picked' button. */
  pick?: { picked: boolean; pending: boolean; onPick: () => void };
  /** A cancelled plan (docs/decisions/0100-cancelling-a-plan.md): no voting, picking or commenting. */
  frozen?: boolean;
}

/** Delete (trash) for the idea's author and the host, asking first (docs/decisions/0065-moderation.md). */
function DeleteIdea({ plan, idea, visitor }: Pick<IdeaCardProps, 'plan' | 'idea' | 'visitor'>) {
  const [asking, setAsking] = useState(false);
  const deleteIdea = useDeleteIdea(plan, visitor, { onDeleted: () => setAsking(false) });
  return (
    <>
      <ActionIcon variant="subtle" color="gray.7" size={30} radius="xl" aria-label={`Delete idea ${idea.text}`} onClick={() => setAsking(true)}>
        <IconTrash size={16} />
      </ActionIcon>
      <ConfirmDialog
        opened={asking}
        onClose={() => setAsking(false)}
        onConfirm={() => deleteIdea.mutate(idea.id)}
        title="Delete this idea?"
        message={`"${idea.text}" will be deleted for everyone, with its votes and comments.`}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={deleteIdea.isPending}
      />
    </>
  );
}

/**
 * One idea: text, author, badges, the vote toggle with its count, the voters,
 * the comments, for the host 'Pick' / 'Picked', and for its author and the
 * host a delete.
 */
export function IdeaCard({ plan, idea, visitor, isTop = false, isHostsPick = false, pick, frozen = false }: IdeaCardProps) {
  const titleId = useId();
  const threadId = useId();
  const [commentsOpen, setCommentsOpen] = useState(false);
  const { vote, isPending: voting, waiting } = useVoteOnIdea(plan, idea.id, visitor);
  const { runsPlan } = usePlanRole(plan, visitor?.userId);
  const voted = idea.hasUserVoted;

  return (
    <Card component="article" aria-labelledby={titleId} withBorder radius="lg" padding="md">
      <Stack gap="xs">
        {(isTop || isHostsPick) && (
          <Group gap={6}>
            {isHostsPick && (
              <Badge color="teal.9" variant="filled" tt="none" leftSection={<IconCrown size={12} />}>
                Host's Pick
              </Badge>
            )}
            {isTop && (
              <Badge color={TOP_IDEA_ORANGE} variant="filled" tt="none" leftSection={<IconTrophy size={12} />}>
                Top Idea
              </Badge>
            )}
          </Group>
        )}
        <div>
          <Text id={titleId} fw={600} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {idea.text}
          </Text>
          <Text fz="xs" c="dimmed">
            by {idea.authorName}
          </Text>
        </div>
        <Group gap="xs" justify="space-between" wrap="wrap">
          <Group gap="xs" wrap="nowrap">
            <Button
              size="compact-md"
              radius="xl"
              variant={voted ? 'filled' : 'light'}
              leftSection={<IconThumbUp size={16} />}
              aria-pressed={voted}
              aria-label={`Vote for ${idea.text} (${votesLabel(idea.voteCount)})`}
              onClick={vote}
              disabled={visitor === undefined || frozen}
              aria-busy={voting || undefined}
            >
              {idea.voteCount}
            </Button>
            {waiting ? (
              <PendingMark label={`Your vote for ${idea.text} is waiting for connection`} />
            ) : (
              <VoterAvatars voters={ideaVotersQueryOptions(plan.id, idea.id)} voteCount={idea.voteCount} />
            )}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <CommentsToggle
              count={idea.commentCount}
              open={commentsOpen}
              threadId={threadId}
              onToggle={() => setCommentsOpen((open) => !open)}
            />
            {mayDelete(idea, runsPlan, visitor) && <DeleteIdea plan={plan} idea={idea} visitor={visitor} />}
            {pick && !frozen && (
              <Button
                size="compact-sm"
                radius="xl"
                // Filled: white on teal 9 (5:1); outline: teal's outline colour (teal 9 in light, 3 in dark).
                color={pick.picked ? 'teal.9' : 'teal'}
                variant={pick.picked ? 'filled' : 'outline'}
                leftSection={pick.picked ? <IconCheck size={14} /> : undefined}
                onClick={pick.onPick}
                disabled={pick.pending}
              >
                {pick.picked ? 'Picked' : 'Pick'}
              </Button>
            )}
          </Group>
        </Group>
        {commentsOpen && (
          <Box id={threadId}>
            <CommentThread plan={plan} ideaId={idea.id} ideaText={idea.text} visitor={visitor} frozen={frozen} />
          </Box>
        )}
      </Stack>
    </Card>
  );
}
