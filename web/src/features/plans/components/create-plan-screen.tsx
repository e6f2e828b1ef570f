import { useId, useState, type FormEvent } from 'react';
import { Button, Card, Stack, Switch, TextInput, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AppLayout } from '../../../components/app-layout';
import { IconArrowLeft } from '../../../components/icons';
import { useCreatePlan } from '../mutations';
import { TITLE_MAX } from '../../../../../supabase/functions/_shared/contract/plans';

export function CreatePlanScreen() {
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  // Spec §9: open invitations by default.
  const [isOpenInvite, setIsOpenInvite] = useState(true);
  const openInviteLabelId = useId();
  // `replace`: Back from the share page goes home, not to a used-up form.
  const createPlan = useCreatePlan({
    onCreated: (plan) => navigate(paths.planShare.getHref(plan.id), { replace: true }),
  });

  const trimmed = title.trim();
  const canSubmit = trimmed.length > 0 && !createPlan.isPending;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canSubmit) createPlan.mutate({ title: trimmed, isOpenInvite });
  };

  return (
    <AppLayout logoTo={paths.home.getHref()}>
      <Stack gap="md">
        <Button
          component={Link}
          to={paths.home.getHref()}
          variant="subtle"
          color="gray"
          leftSection={<IconArrowLeft size={18} />}
          w="fit-content"
          px="xs"
        >
          Back
        </Button>
        <Title order={1} fz="h2">
          Create New Plan
        </Title>
        <Card withBorder radius="lg" padding="lg">
          <form onSubmit={handleSubmit} aria-label="Create New Plan">
            <Stack gap="lg">
              <TextInput
                label="What are you planning?"
                placeholder="Dinner, a hike, game night..."
                value={title}
                onChange={(event) => setTitle(event.currentTarget.value)}
                maxLength={TITLE_MAX}
                required
                autoComplete="off"
                size="md"
              />
              <Switch
                // Mantine's <label> also wraps the description: name the switch by
                // its label alone, the description stays its description.
                label={<span id={openInviteLabelId}>Open Invitations</span>}
                aria-labelledby={openInviteLabelId}
                description="Allow invited people to invite others"
                checked={isOpenInvite}
                onChange={(event) => setIsOpenInvite(event.currentTarget.checked)}
                size="md"
              />
              <Button type="submit" size="md" fullWidth disabled={!canSubmit}>
                {createPlan.isPending ? 'Creating...' : 'Create & Share Plan'}
              </Button>
            </Stack>
          </form>
        </Card>
      </Stack>
    </AppLayout>
  );
}
