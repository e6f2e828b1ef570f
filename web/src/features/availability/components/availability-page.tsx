import { ActionIcon, Button, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { IconArrowLeft } from '../../../components/icons';
import { showSuccessToast } from '../../../lib/toast';
import type { Plan } from '../../plans';
import { AvailabilityContent } from './availability-content';
import { confirmedTime, EventConfirmedPanel } from './confirmed';
import { colors } from '../../../lib/colors';

/** Spec §2: the flow has 3 steps; the third is not shown. */
const STEP = 2;
const STEPS = 3;

interface AvailabilityPageProps {
  plan: Plan;
  isHost: boolean;
  /** Where back and 'Submit Availability' lead: /plan/{id} or /l/{slug}. */
  planHref: string;
  /** The ideas page (step 1), where 'Back to Plan' leads once the time is set. */
  ideasHref: string;
  /** A signed-out visitor (a guest) sees 'Don't lose your choices'. */
  signedIn: boolean;
  /** This page's own path, to come back to after creating an account. */
  selfHref: string;
}

function SaveChoicesCard({ returnTo }: { returnTo: string }) {
  return (
    <Card radius="lg" padding="lg" bg={colors.tint} withBorder component="aside" aria-labelledby="save-choices-title">
      <Stack gap="sm">
        <div>
          <Title id="save-choices-title" order={2} fz="h4">
            Don't lose your choices
          </Title>
          <Text fz="sm" c="dimmed" mt={4}>
            Create a free account to keep your availability and hear as soon as the host sets the time.
          </Text>
        </div>
        <Button component={Link} to={paths.auth.getHref(returnTo)} variant="light" fullWidth>
          Create Account
        </Button>
      </Stack>
    </Card>
  );
}

/** /plan/{id}/availability and /l/{slug}/availability (spec §2 Availability page, step 2 of 3). */
export function AvailabilityPage({ plan, isHost, planHref, ideasHref, signedIn, selfHref }: AvailabilityPageProps) {
  const navigate = useNavigate();
  const submit = () => {
    showSuccessToast('Availability submitted!', "You'll be notified when the host makes a decision.");
    navigate(planHref);
  };

  return (
    <Stack gap="lg">
      <Group gap="sm" wrap="nowrap">
        <ActionIcon component={Link} to={planHref} variant="subtle" size="lg" radius="xl" aria-label="Back to the plan">
          <IconArrowLeft size={20} />
        </ActionIcon>
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={700} truncate>
              {plan.title}
            </Text>
            <Text fz="sm" c="dimmed" style={{ flexShrink: 0 }}>
              Step {STEP} of {STEPS}
            </Text>
          </Group>
          <Progress value={(STEP / STEPS) * 100} size="sm" radius="xl" aria-label={`Step ${STEP} of ${STEPS}`} />
        </Stack>
      </Group>
      {confirmedTime(plan) ? (
        <EventConfirmedPanel plan={plan} backTo={ideasHref} />
      ) : (
        <>
          <AvailabilityContent plan={plan} isHost={isHost} headingOrder={1} />
          {!signedIn && <SaveChoicesCard returnTo={selfHref} />}
          <Button size="md" radius="xl" fullWidth onClick={submit}>
            Submit Availability
          </Button>
        </>
      )}
    </Stack>
  );
}
