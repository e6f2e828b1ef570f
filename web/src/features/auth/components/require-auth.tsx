import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { Splash } from '../../../components/splash';
import { useCurrentUser } from '../queries';

/** Layout route for signed-in-only screens (spec §6). */
export function RequireAuth() {
  const { data: user, isPending } = useCurrentUser();
  const { pathname, search } = useLocation();
  if (isPending) return <Splash />;
  if (!user) return <Navigate to={paths.auth.getHref(`${pathname}${search}`)} replace />;
  return <Outlet />;
}
