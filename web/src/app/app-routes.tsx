import { Route, Routes } from 'react-router-dom';
import { paths } from '../config/paths';
import { NotFoundScreen } from '../components/not-found-screen';
import { RequireAuth } from '../features/auth/components/require-auth';
import { SessionGate } from '../features/auth/components/session-gate';
import { AuthScreen, CreatePlanScreen, HomeScreen, PlanScreen, planTabs, ProfileScreen, ShareScreen, UndoEmailChangeScreen, UnsubscribeScreen } from './lazy-screens';
import { JoinScreen } from '../features/guests/components/join-screen';
import { GuestDashboardScreen } from './lazy-screens';
import { GuestAvailabilityScreen, PlanAvailabilityScreen } from './lazy-screens';
import { GuestIdeasScreen, InterestsScreen, ManageInterestsScreen, PlanIdeasScreen } from './lazy-screens';
import { RootRoute } from './root-route';

// Every route of spec §2.
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<SessionGate />}>
        <Route path={paths.landing.path} element={<RootRoute />} />
        <Route path={paths.auth.path} element={<AuthScreen />} />
        {/* Signed in or not: the link comes by e-mail, often to another device. */}
        <Route path={paths.undoEmailChange.path} element={<UndoEmailChangeScreen />} />
        {/* Likewise the unsubscribe link of a notification e-mail: its token is the credential. */}
        <Route path={paths.unsubscribe.path} element={<UnsubscribeScreen />} />

        {/* Spec §6: signed-in only. */}
        <Route element={<RequireAuth />}>
          <Route path={paths.home.path} element={<HomeScreen />} />
          <Route path={paths.profile.path} element={<ProfileScreen />} />
          <Route path={paths.createPlan.path} element={<CreatePlanScreen />} />
          <Route path={paths.planShare.path} element={<ShareScreen />} />
          <Route path={paths.plan.path} element={<PlanScreen tabs={planTabs} />} />
          <Route path={paths.planIdeas.path} element={<PlanIdeasScreen />} />
          <Route path={paths.planAvailability.path} element={<PlanAvailabilityScreen />} />
          <Route path={paths.interests.path} element={<InterestsScreen />} />
          <Route path={paths.manageInterests.path} element={<ManageInterestsScreen />} />
        </Route>

        {/* Anyone with the link: guests and members (their own checks come later). */}
        <Route path={paths.join.path} element={<JoinScreen />} />
        <Route path={paths.guestDashboard.path} element={<GuestDashboardScreen />} />
        <Route path={paths.guestIdeas.path} element={<GuestIdeasScreen />} />
        <Route path={paths.guestAvailability.path} element={<GuestAvailabilityScreen />} />

        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
