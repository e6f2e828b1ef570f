import { useState, type FormEvent } from 'react';
import { ActionIcon, Box, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatMoment } from '../../../lib/local-date';
import { IconTrash } from '../../../components/icons';
import type { PlanVisitor } from '../../guests';
import { usePlanRole, type Plan } from '../../plans';
import { commentToggleLabel, mayDelete } from '../ideas';
import { PendingMark } from '../../../components/pending-mark';
import { useAddComment, useDeleteComment, usePendingComments } from '../mutations';
import { ideaCommentsQueryOptions } from '../queries';
import { COMMENT_TEXT_MAX, type IdeaComment } from '../../../../../supabase/functions/_shared/contract/ideas';
import { IconMessageCircle, IconSend } from './idea-icons';
import { colors } from '../../../lib/colors';

interface CommentsProps {
  plan: Pick<Plan, 'id' | 'hostId'>;
  ideaId: string;
  ideaText: string;
  visitor: PlanVisitor | null | undefined;
  /** A cancelled plan: the thread is read only. */
  frozen?: boolean;
}

/** The open thread: comments oldest first (cached 5 minutes, spec §7) and a one-line form posted with Enter. */
export function CommentThread({ plan, ideaId, ideaText, visitor, frozen = false }: CommentsProps) {
  const planId = plan.id;
  const comments = useQuery(ideaCommentsQueryOptions(planId, ideaId));
  const { runsPlan } = usePlanRole(plan, visitor?.userId);
  const [deleting, setDeleting] = useState<IdeaComment | null>(null);
  const deleteComment = useDeleteComment(planId, ideaId, visitor, { onDeleted: () => setDeleting(null) });
  const [text, setText] = useState('');
  const addComment = useAddComment(planId, ideaId, visitor, { onAdded: () => setText('') });
  // Posted with no network: listed after the others, marked, until they are sent.
  const waiting = usePendingComments(planId, ideaId).filter((pending) => pending.waiting);
  const blank = text.trim() === '';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (blank || addComment.isPending) return;
    addComment.mutate(text);
  };

  return (
    <Stack gap="xs" mt="xs">
      {comments.data === undefined && comments.isPending ? (
        <Group gap="xs" role="status" aria-label="Loading comments">
          <Loader size="xs" aria-hidden="true" />
        </Group>
      ) : comments.data === undefined ? (
        <Group gap="xs">
          <Text fz="sm" c="dimmed">
            Couldn't load the comments.
          </Text>
          <Button size="compact-sm" variant="light" onClick={() => comments.refetch()} disabled={comments.isRefetching}>
            Try again
          </Button>
        </Group>
      ) : null}
      {/* The ones waiting to be sent show even when the thread could not be read (no network). */}
      {(comments.data?.length ?? 0) + waiting.length > 0 && (
        <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={`Comments on ${ideaText}`}>
          {comments.data?.map((comment) => (
            <Box component="li" key={comment.id} bg={colors.page} p="xs" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
              <Group gap={6} wrap="nowrap" justify="space-between" align="baseline">
                <Text fz="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {comment.authorName}
                </Text>
                <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                  <Text fz="xs" c="dimmed">
                    {formatMoment(comment.createdAt)}
                  </Text>
                  {mayDelete(comment, runsPlan, visitor) && (
                    <ActionIcon
                      variant="subtle"
                      color="gray.7"
                      size={24}
                      radius="xl"
                      aria-label={`Delete comment by ${comment.authorName}`}
                      onClick={() => setDeleting(comment)}
                    >
                      <IconTrash size={14} />
                    </ActionIcon>
                  )}
                </Group>
              </Group>
              <Text fz="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                {comment.text}
              </Text>
            </Box>
          ))}
          {waiting.map((pending) => (
            <Box
              component="li"
              key={pending.key}
              p="xs"
              style={{ borderRadius: 'var(--mantine-radius-md)', border: `1px dashed ${colors.line}` }}
            >
              <Group gap={6} wrap="nowrap" justify="space-between" align="baseline">
                <Text fz="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {pending.data.authorName}
                </Text>
                <PendingMark label="Your comment is waiting for connection" />
              </Group>
              <Text fz="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                {pending.data.text}
              </Text>
            </Box>
          ))}
        </Stack>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && deleteComment.mutate(deleting.id)}
        title="Delete this comment?"
        message="It will be deleted for everyone."
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={deleteComment.isPending}
      />
      {!frozen && (
        <form onSubmit={submit} noValidate>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <TextInput
              flex={1}
              size="sm"
              placeholder="Add a comment..."
              aria-label={`Add a comment on ${ideaText}`}
              value={text}
              maxLength={COMMENT_TEXT_MAX}
              enterKeyHint="send"
              onChange={(event) => setText(event.currentTarget.value)}
              readOnly={addComment.isPending}
            />
            <ActionIcon
              type="submit"
              size={36}
              radius="md"
              aria-label="Post comment"
              disabled={blank || addComment.isPending}
              loading={addComment.isPending}
            >
              <IconSend />
            </ActionIcon>
          </Group>
        </form>
      )}
    </Stack>
  );
}

/** 'Add comment' / 'N comment(s)': opens or closes the idea's thread. */
export function CommentsToggle({
  count,
  open,
  threadId,
  onToggle,
}: {
  count: number;
  open: boolean;
  threadId: string;
  onToggle: () => void;
}) {
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      leftSection={<IconMessageCircle size={16} />}
      aria-expanded={open}
      aria-controls={open ? threadId : undefined}
      onClick={onToggle}
    >
      {commentToggleLabel(count)}
    </Button>
  );
}
