import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { AppProviders } from '../app/providers';
import { createLiveHub } from '../lib/live';
import { createQueryClient } from '../lib/query-client';
import { fakeLiveTransport } from './fake-live';

/** Prints where the router is, so tests can assert redirects. */
function LocationProbe() {
  const { pathname, search } = useLocation();
  return <div data-testid="location" hidden>{`${pathname}${search}`}</div>;
}

interface Options {
  /** Initial entry: a path, or a path with router state. */
  route?: string | { pathname: string; search?: string; state?: unknown };
}

/**
 * Renders `ui` inside the app's real providers and a MemoryRouter. Live
 * updates go through a fake transport (`live`): no event streams are fetched,
 * and the test sends the events.
 */
export function renderWithProviders(ui: ReactElement, { route = '/' }: Options = {}) {
  const queryClient = createQueryClient();
  const user = userEvent.setup();
  const live = fakeLiveTransport();
  const liveHub = createLiveHub(live.transport);
  const result = render(
    <AppProviders queryClient={queryClient} env="test" liveHub={liveHub}>
      <MemoryRouter initialEntries={[route]}>
        {ui}
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  const location = () => result.getByTestId('location').textContent;
  return { ...result, user, queryClient, location, live, liveHub };
}
