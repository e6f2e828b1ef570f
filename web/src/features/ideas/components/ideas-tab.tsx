import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { planDetailQueryOptions } from '../../plans';
import { AddIdeaCard } from './add-idea-form';
import { IdeasBoard } from './ideas-board';

interface IdeasTabProps {
  planId: string;
  isHost: boolean;
}

/**
 * The plan page's Ideas tab (spec §2 Plan detail): 'Add New Idea' with the
 * Suggest Idea panel, then the ideas by votes with 'Top Idea', votes,
 * voters, comments and, for the host, Pick / Picked.
 */
export function IdeasTab({ planId, isHost }: IdeasTabProps) {
  // The plan page has loaded the plan already: this reads the cache.
  const { data: plan } = useQuery(planDetailQueryOptions(planId));
  if (!plan) {
    return (
      <Center py="xl" role="status" aria-label="Loading ideas">
        <Loader size="sm" />
      </Center>
    );
  }
  return (
    <IdeasBoard
      plan={plan}
      isHost={isHost}
      showTopIdea
      formFirst
      renderForm={({ visitor, suggestButton }) => (
        <AddIdeaCard planId={plan.id} visitor={visitor} extraAction={suggestButton} />
      )}
    />
  );
}
