import type { ReactNode } from 'react';
import { ActionIcon, AppShell, Button, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { BottomNav } from '../../../components/bottom-nav';
import { IconArrowLeft } from '../../../components/icons';
import { usePlanLiveUpdates } from '../../../lib/live';
import { RequirePlanVisitor } from '../../guests';
import { usePlanVisitor, type PlanVisitor } from '../../guests';
import { PlanLoadState } from '../../plans';
import { LoadingPlan } from '../../plans';
import { planDetailQueryOptions } from '../../plans';
import type { Plan } from '../../plans';
import { SuggestIdeaInput } from './add-idea-form';
import { IdeasBoard } from './ideas-board';
import { StepIndicator } from './step-indicator';
import { colors } from '../../../lib/colors';

interface IdeasLayoutProps {
  children: ReactNode;
  backTo: string;
  planTitle?: string;
  /** The signed-in app's bottom navigation (not on the public /l/ pages). */
  withNav: boolean;
}

/** Header 'Plan Ideas' with the plan title and a back link; the app navigation when signed in. */
function IdeasLayout({ children, backTo, planTitle, withNav }: IdeasLayoutProps) {
  return (
    <AppShell header={{ height: 64 }} footer={withNav ? { height: 64 } : undefined} padding={0}>
      <AppShell.Header>
        <Container size="sm" h="100%">
          <Group h="100%" gap="sm" wrap="nowrap">
            <ActionIcon component={Link} to={backTo} variant="subtle" color="gray.8" size="lg" radius="xl" aria-label="Back">
              <IconArrowLeft />
            </ActionIcon>
            <div style={{ minWidth: 0 }}>
              <Title order={1} fz="h4" lh={1.2}>
                Plan Ideas
              </Title>
              {planTitle && (
                <Text fz="sm" c="dimmed" truncate="end">
                  {planTitle}
                </Text>
              )}
            </div>
          </Group>
        </Container>
      </AppShell.Header>
      <AppShell.Main bg={colors.page}>
        <Container size="sm" py="lg" pb={withNav ? 96 : 'xl'}>
          {children}
        </Container>
      </AppShell.Main>
      {withNav && (
        <AppShell.Footer>
          <BottomNav />
        </AppShell.Footer>
      )}
    </AppShell>
  );
}

/** 'Save your votes' / 'Create Account' for a visitor who is not signed in. */
function SaveVotesCard({ returnTo }: { returnTo: string }) {
  return (
    <Card withBorder radius="lg" padding="lg" bg={colors.tint} component="aside" aria-labelledby="save-votes-title">
      <Stack gap="sm">
        <div>
          <Title id="save-votes-title" order={2} fz="h4">
            Save your votes
          </Title>
          <Text fz="sm" c="dimmed" mt={4}>
            Create a free account to keep your votes and hear when the plan is set.
          </Text>
        </div>
        <Button component={Link} to={paths.auth.getHref(returnTo)} variant="light">
          Create Account
        </Button>
      </Stack>
    </Card>
  );
}

interface IdeasPageProps {
  plan: Plan;
  visitor: PlanVisitor;
  availabilityHref: string;
}

/** Step 1 of 3 (spec §2 Ideas page): the idea cards, the suggest form and panel, then on to availability. */
function IdeasPage({ plan, visitor, availabilityHref }: IdeasPageProps) {
  const { pathname, search } = useLocation();
  return (
    <Stack gap="lg">
      <StepIndicator step={1} />
      <div>
        <Title order={2} fz="h3">
          What should we do?
        </Title>
        <Text c="dimmed" fz="sm">
          Vote for the ideas you like, or suggest your own.
        </Text>
      </div>
      <IdeasBoard
        plan={plan}
        showTopIdea
        renderForm={({ visitor: current, suggestButton }) => (
          <Stack gap="xs" align="flex-start">
            <div style={{ width: '100%' }}>
              <SuggestIdeaInput planId={plan.id} visitor={current} />
            </div>
            {suggestButton}
          </Stack>
        )}
      />
      {visitor.kind === 'guest' && <SaveVotesCard returnTo={`${pathname}${search}`} />}
      <Button component={Link} to={availabilityHref} size="md" fullWidth>
        Continue to Availability
      </Button>
    </Stack>
  );
}

/** /plan/{id}/ideas: signed in (RequireAuth); back goes to /home. */
export function PlanIdeasScreen() {
  const { id = '' } = useParams();
  const planQuery = useQuery(planDetailQueryOptions(id));
  const visitor = usePlanVisitor(planQuery.data?.id);
  usePlanLiveUpdates(planQuery.data);
  return (
    <IdeasLayout backTo={paths.home.getHref()} planTitle={planQuery.data?.title} withNav>
      <PlanLoadState query={planQuery} loading={<LoadingPlan />}>
        {(plan) =>
          visitor ? (
            <IdeasPage plan={plan} visitor={visitor} availabilityHref={paths.planAvailability.getHref(plan.id)} />
          ) : (
            <LoadingPlan />
          )
        }
      </PlanLoadState>
    </IdeasLayout>
  );
}

/** The loading, not-found and error states of /l/{slug}/ideas, in the page's own frame. */
function GuestIdeasFrame({ children }: { children: ReactNode }) {
  const { slug = '' } = useParams();
  return (
    <IdeasLayout backTo={paths.join.getHref(slug)} withNav={false}>
      {children}
    </IdeasLayout>
  );
}

/** /l/{slug}/ideas: a member or this plan's guest (else the join page); back goes to /l/{slug}. */
export function GuestIdeasScreen() {
  const { slug = '' } = useParams();
  return (
    <RequirePlanVisitor slug={slug} layout={GuestIdeasFrame}>
      {({ plan, visitor }) => (
        <IdeasLayout backTo={paths.join.getHref(slug)} planTitle={plan.title} withNav={false}>
          <IdeasPage plan={plan} visitor={visitor} availabilityHref={paths.guestAvailability.getHref(plan.slug)} />
        </IdeasLayout>
      )}
    </RequirePlanVisitor>
  );
}
