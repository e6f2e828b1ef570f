import { Navigate } from 'react-router-dom';
import { paths } from '../config/paths';
import { useCurrentUser } from '../features/auth/queries';
import { LandingScreen } from '../features/landing/components/landing-screen';

/** `/`: the landing page when signed out, home when signed in (spec §2). */
export function RootRoute() {
  const { data: user } = useCurrentUser();
  return user ? <Navigate to={paths.home.getHref()} replace /> : <LandingScreen />;
}
