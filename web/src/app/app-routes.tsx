import { Route, Routes } from 'react-router-dom';
import { paths } from '../config/paths';
import { ComingSoonScreen } from '../components/coming-soon-screen';
import { NotFoundScreen } from '../components/not-found-screen';
import { RequireAuth } from '../features/auth/components/require-auth';
import { SessionGate } from '../features/auth/components/session-gate';
import { AuthScreen, CreatePlanScreen, HomeScreen, PlanScreen, planTabs, ProfileScreen, ShareScreen } from './lazy-screens';
import { RootRoute } from './root-route';

// Every route of spec §2. `ComingSoonScreen` marks screens of later issues.
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<SessionGate />}>
        <Route path={paths.landing.path} element={<RootRoute />} />
        <Route path={paths.auth.path} element={<AuthScreen />} />

        {/* Spec §6: signed-in only. */}
        <Route element={<RequireAuth />}>
          <Route path={paths.home.path} element={<HomeScreen />} />
          <Route path={paths.profile.path} element={<ProfileScreen />} />
          <Route path={paths.createPlan.path} element={<CreatePlanScreen />} />
          <Route path={paths.planShare.path} element={<ShareScreen />} />
          <Route path={paths.plan.path} element={<PlanScreen tabs={planTabs} />} />
          <Route path={paths.planIdeas.path} element={<ComingSoonScreen title="Plan Ideas" />} />
          <Route path={paths.planAvailability.path} element={<ComingSoonScreen title="Availability" />} />
          <Route path={paths.interests.path} element={<ComingSoonScreen title="Interests" />} />
          <Route path={paths.manageInterests.path} element={<ComingSoonScreen title="Manage Interests" />} />
        </Route>

        {/* Anyone with the link: guests and members (their own checks come later). */}
        <Route path={paths.join.path} element={<ComingSoonScreen title="Join the Plan" />} />
        <Route path={paths.guestDashboard.path} element={<ComingSoonScreen title="Plan dashboard" />} />
        <Route path={paths.guestIdeas.path} element={<ComingSoonScreen title="Plan Ideas" />} />
        <Route path={paths.guestAvailability.path} element={<ComingSoonScreen title="Availability" />} />

        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
