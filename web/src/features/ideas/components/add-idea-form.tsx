import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Card, Group, Stack, Textarea, TextInput, Title } from '@mantine/core';
import type { PlanVisitor } from '../../guests';
import { useAddIdea } from '../mutations';
import { IDEA_TEXT_MAX } from '../../../../../supabase/functions/_shared/contract/ideas';

interface AddIdeaFormProps {
  planId: string;
  visitor: PlanVisitor | null | undefined;
  /** Next to Add: the 'Suggest Idea' button. */
  extraAction?: ReactNode;
}

function useIdeaDraft(planId: string, visitor: PlanVisitor | null | undefined) {
  const [text, setText] = useState('');
  const addIdea = useAddIdea(planId, visitor, { onAdded: () => setText('') });
  const blank = text.trim() === '';
  const submit = (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    // Spec §5: Add is disabled when blank; no double submits while pending.
    if (blank || addIdea.isPending) return;
    addIdea.mutate(text);
  };
  return { text, setText, blank, submit, pending: addIdea.isPending };
}

/** The plan page's 'Add New Idea' card: a textarea ('Share your idea') and Add. */
export function AddIdeaCard({ planId, visitor, extraAction }: AddIdeaFormProps) {
  const titleId = useId();
  const { text, setText, blank, submit, pending } = useIdeaDraft(planId, visitor);
  return (
    <Card withBorder radius="lg" padding="md" component="section" aria-labelledby={titleId}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title id={titleId} order={2} fz="h4">
            Add New Idea
          </Title>
          <Textarea
            aria-labelledby={titleId}
            placeholder="Share your idea"
            // Fixed rows: Mantine's autosize needs document.fonts (absent in jsdom).
            rows={3}
            maxLength={IDEA_TEXT_MAX}
            value={text}
            readOnly={pending}
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Ctrl/Cmd+Enter adds from a keyboard; Enter alone is a new line.
              if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
                event.preventDefault();
                submit();
              }
            }}
          />
          <Group gap="sm" justify="space-between">
            {extraAction}
            <Button type="submit" disabled={blank || pending} ml="auto">
              {pending ? 'Adding...' : 'Add'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** The dashboard's and ideas page's one-line 'Suggest a new idea...' with Add. */
export function SuggestIdeaInput({ planId, visitor }: Omit<AddIdeaFormProps, 'extraAction'>) {
  const { text, setText, blank, submit, pending } = useIdeaDraft(planId, visitor);
  return (
    <form onSubmit={submit} noValidate>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <TextInput
          flex={1}
          placeholder="Suggest a new idea..."
          aria-label="Suggest a new idea"
          maxLength={IDEA_TEXT_MAX}
          enterKeyHint="done"
          value={text}
          readOnly={pending}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <Button type="submit" disabled={blank || pending}>
          {pending ? 'Adding...' : 'Add'}
        </Button>
      </Group>
    </form>
  );
}
