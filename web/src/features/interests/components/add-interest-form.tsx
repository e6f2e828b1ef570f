import { useState, type FormEvent } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useAddInterest } from '../mutations';
import { INTEREST_TEXT_MAX, type UserInterest } from '../../../../../supabase/functions/_shared/contract/interests';

/** A free-text interest: trimmed, non-empty (spec §5); Add is disabled otherwise. */
export function AddInterestForm({
  label,
  placeholder,
  onAdded,
}: {
  label: string;
  placeholder: string;
  onAdded?: (interest: UserInterest) => void;
}) {
  const [text, setText] = useState('');
  const addInterest = useAddInterest({
    onAdded: (interest) => {
      setText('');
      onAdded?.(interest);
    },
  });
  const blank = text.trim() === '';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (blank || addInterest.isPending) return;
    addInterest.mutate({ freeFormText: text.trim() });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <TextInput
          flex={1}
          aria-label={label}
          placeholder={placeholder}
          maxLength={INTEREST_TEXT_MAX}
          value={text}
          readOnly={addInterest.isPending}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <Button type="submit" disabled={blank || addInterest.isPending}>
          {addInterest.isPending ? 'Adding...' : 'Add'}
        </Button>
      </Group>
    </form>
  );
}
