import { useParams } from 'react-router-dom';
import { GuestDashboard } from './guest-dashboard';
import { PublicLayout } from '../../guests';
import { RequirePlanVisitor } from '../../guests';

/** /l/{slug}/dashboard (spec §2 Guest dashboard). */
export function GuestDashboardScreen() {
  const { slug = '' } = useParams();
  return (
    <RequirePlanVisitor slug={slug}>
      {({ plan, visitor }) => (
        <PublicLayout>
          <GuestDashboard plan={plan} visitor={visitor} />
        </PublicLayout>
      )}
    </RequirePlanVisitor>
  );
}
