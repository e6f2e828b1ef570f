import { Stack } from '@mantine/core';
import type { Plan } from '../../plans';
import { SuggestIdeaInput } from './add-idea-form';
import { IdeasBoard } from './ideas-board';

/**
 * The guest dashboard's Ideas tab (spec §2 Guest dashboard): the ideas with
 * their votes, 'Host's Pick' on the picked one and expandable comments, then
 * 'Suggest a new idea...' with Add and the 'Suggest Idea' panel. Guests vote
 * with their guest id (mirrored locally), members with their token.
 */
export function DashboardIdeasTab({ plan }: { plan: Plan }) {
  return (
    <IdeasBoard
      plan={plan}
      renderForm={({ visitor, suggestButton }) => (
        <Stack gap="xs" align="flex-start">
          <div style={{ width: '100%' }}>
            <SuggestIdeaInput planId={plan.id} visitor={visitor} />
          </div>
          {suggestButton}
        </Stack>
      )}
    />
  );
}
