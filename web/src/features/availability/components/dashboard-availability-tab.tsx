import type { Plan } from '../../plans';
import { AvailabilityContent } from './availability-content';
import { EventTimeConfirmedCard, confirmedTime } from './confirmed';

/**
 * The guest dashboard's Availability tab (spec §2): the 'Event Time
 * Confirmed!' card once the time is set, else the date voting (never a host
 * view on /l/{slug}/dashboard, spec §6).
 */
export function DashboardAvailabilityTab({ plan }: { plan: Plan }) {
  if (confirmedTime(plan)) return <EventTimeConfirmedCard plan={plan} />;
  return <AvailabilityContent plan={plan} isHost={false} />;
}
