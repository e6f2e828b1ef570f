import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { planDetailQueryOptions } from '../../plans';
import { AvailabilityContent } from './availability-content';
import { confirmedTime, EventTimeConfirmedCard } from './confirmed';
import { FinalTimeSet } from './final-time-set';

interface AvailabilityTabProps {
  planId: string;
  isHost: boolean;
}

/**
 * The plan page's Availability tab (spec §2 Plan detail): date voting with the
 * host's 'Pick Date'; once the time is set, 'Final Time Set' for the host
 * (unlock, share) and the confirmed card for everyone else.
 */
export function AvailabilityTab({ planId, isHost }: AvailabilityTabProps) {
  // The plan page has loaded the plan already: this reads the cache.
  const { data: plan } = useQuery(planDetailQueryOptions(planId));
  if (!plan) {
    return (
      <Center py="xl" role="status" aria-label="Loading availability">
        <Loader size="sm" />
      </Center>
    );
  }
  if (confirmedTime(plan)) return isHost ? <FinalTimeSet plan={plan} /> : <EventTimeConfirmedCard plan={plan} />;
  return <AvailabilityContent plan={plan} isHost={isHost} />;
}
