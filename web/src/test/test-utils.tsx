import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../lib/query-client';

/** Prints where the router is, so tests can assert redirects. */
function LocationProbe() {
  const { pathname, search } = useLocation();
  return <div data-testid="location" hidden>{`${pathname}${search}`}</div>;
}

interface Options {
  /** Initial entry: a path, or a path with router state. */
  route?: string | { pathname: string; search?: string; state?: unknown };
}

/** Renders `ui` inside the app's real providers and a MemoryRouter. */
export function renderWithProviders(ui: ReactElement, { route = '/' }: Options = {}) {
  const queryClient = createQueryClient();
  const user = userEvent.setup();
  const result = render(
    <AppProviders queryClient={queryClient} env="test">
      <MemoryRouter initialEntries={[route]}>
        {ui}
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  const location = () => result.getByTestId('location').textContent;
  return { ...result, user, queryClient, location };
}
