import { useState, type FormEvent } from 'react';
import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';

interface FullNameFormProps {
  /** The name that was taken, offered as the first name. */
  takenName: string;
  onSubmit: (fullName: string) => void;
  onBack: () => void;
  creating: boolean;
}

/** Spec §2 Join, after 'No, different person'; spec §5: both names non-blank, sent as 'first last'. */
export function FullNameForm({ takenName, onSubmit, onBack, creating }: FullNameFormProps) {
  const [firstName, setFirstName] = useState(takenName);
  const [lastName, setLastName] = useState('');
  const first = firstName.trim();
  const last = lastName.trim();
  const complete = first !== '' && last !== '';

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (complete && !creating) onSubmit(`${first} ${last}`);
  };

  return (
    <Card withBorder radius="lg" padding="lg" component="form" onSubmit={handleSubmit} aria-labelledby="full-name-title">
      <Stack gap="md">
        <div>
          <Title id="full-name-title" order={2} fz="h3">
            Enter Your Full Name
          </Title>
          <Text c="dimmed" fz="sm" mt={4}>
            Someone named {takenName} already joined. Add your last name so everyone can tell you apart.
          </Text>
        </div>
        <Group grow gap="sm" align="flex-start">
          <TextInput
            label="First name"
            size="md"
            autoComplete="given-name"
            maxLength={40}
            value={firstName}
            onChange={(event) => setFirstName(event.currentTarget.value)}
            readOnly={creating}
          />
          <TextInput
            label="Last name"
            size="md"
            autoComplete="family-name"
            maxLength={39}
            // The first name is filled in already: the last one is what's missing.
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the form was opened to add exactly this
            autoFocus
            value={lastName}
            onChange={(event) => setLastName(event.currentTarget.value)}
            readOnly={creating}
          />
        </Group>
        <Button type="submit" size="md" fullWidth disabled={!complete || creating}>
          {creating ? 'Creating...' : 'Create New Guest Profile'}
        </Button>
        <Button variant="subtle" onClick={onBack} disabled={creating}>
          Back
        </Button>
      </Stack>
    </Card>
  );
}
