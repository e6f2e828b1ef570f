import { useState, type FormEvent } from 'react';
import { Button, Card, Group, Stack, TextInput, Title } from '@mantine/core';
import type { User } from '../../auth';
import { useUpdateProfile } from '../mutations';
import { profileFormSchema, type ProfileInput } from '../schema';

type Errors = Partial<Record<keyof ProfileInput, string>>;

interface ProfileFormProps {
  user: User;
  /** A code went to this new address: the screen asks for it. */
  onPendingEmail: (email: string) => void;
}

export function ProfileForm({ user, onPendingEmail }: ProfileFormProps) {
  const [values, setValues] = useState<ProfileInput>({
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    email: user.email,
  });
  const [errors, setErrors] = useState<Errors>({});
  const updateProfile = useUpdateProfile();

  const field = (name: keyof ProfileInput) => ({
    value: values[name],
    error: errors[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = profileFormSchema.safeParse(values);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof ProfileInput] ??= issue.message;
      setErrors(next);
      return;
    }
    updateProfile.mutate(parsed.data, {
      onSuccess: ({ pendingEmail }) => {
        if (pendingEmail) onPendingEmail(pendingEmail);
      },
    });
  };

  return (
    <Card withBorder radius="lg" padding="lg">
      <form onSubmit={handleSubmit} noValidate aria-labelledby="personal-info-title">
        <Stack gap="md">
          <Title id="personal-info-title" order={2} fz="h4">
            Personal Information
          </Title>
          <Group grow align="flex-start" wrap="wrap" gap="md">
            <TextInput label="First Name" autoComplete="given-name" miw={140} {...field('firstName')} />
            <TextInput label="Last Name" autoComplete="family-name" miw={140} {...field('lastName')} />
          </Group>
          <TextInput label="Email Address" type="email" required autoComplete="email" {...field('email')} />
          <Button type="submit" disabled={updateProfile.isPending}>
            {updateProfile.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
