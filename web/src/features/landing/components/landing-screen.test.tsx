import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/app-routes';
import { mockFetch, noContent, text } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/test-utils';

const signedOut = { 'GET /api/auth/me': () => text('Not signed in', 401) };

describe('landing page', () => {
  it('shows the header, the features, how it works, the claims and both calls to action', async () => {
    mockFetch(signedOut);
    renderWithProviders(<AppRoutes />, { route: '/' });
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Turn "we should hang out" into a real plan');
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth');
    for (const feature of ['Collect Ideas', 'Find Common Time', 'Include Everyone']) {
      expect(screen.getByRole('heading', { level: 3, name: feature })).toBeInTheDocument();
    }
    const howItWorks = screen.getByRole('region', { name: 'How it works' });
    const steps = within(howItWorks).getAllByRole('listitem');
    expect(steps.map((step) => within(step).getByRole('heading').textContent)).toEqual([
      'Create & Share',
      'Vote Together',
      'Lock It In',
    ]);
    expect(screen.getByText('Free to use')).toBeInTheDocument();
    expect(screen.getByText('No credit card required')).toBeInTheDocument();
    expect(screen.getByText(/4\.9\/5/)).toBeInTheDocument();
    expect(screen.getByText(/Start planning in 30 seconds/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Planning' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get Started Free' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent('Hangplan');
  });

  it('sends the code, then opens step 2 of sign-in with that e-mail and returnTo=/home', async () => {
    const { calls } = mockFetch({ ...signedOut, 'POST /api/auth/send-otp': noContent });
    const { user, location } = renderWithProviders(<AppRoutes />, { route: '/' });
    const hero = await screen.findByRole('region', { name: /we should hang out/ });
    await user.type(within(hero).getByRole('textbox', { name: 'Email address' }), 'ada@example.com');
    await user.click(within(hero).getByRole('button', { name: 'Start Planning' }));

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(calls('POST', '/api/auth/send-otp')[0]!.body).toEqual({ email: 'ada@example.com', device: localStorage.getItem('signInDevice') });
    expect(screen.getByText('Code sent!')).toBeInTheDocument();
    expect(location()).toBe('/auth?returnTo=/home');
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
  });

  it('works from the second call to action, and shows send errors', async () => {
    mockFetch({ ...signedOut, 'POST /api/auth/send-otp': () => text('Enter a valid email address', 400) });
    const { user, location } = renderWithProviders(<AppRoutes />, { route: '/' });
    const cta = await screen.findByRole('region', { name: 'Ready to make it happen?' });
    await user.type(within(cta).getByRole('textbox', { name: 'Email address' }), 'ada@example.com');
    await user.click(within(cta).getByRole('button', { name: 'Get Started Free' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    await waitFor(() => expect(within(cta).getByRole('button', { name: 'Get Started Free' })).toBeEnabled());
    expect(location()).toBe('/');
  });

  it('does not send an empty e-mail', async () => {
    const { calls } = mockFetch(signedOut);
    const { user } = renderWithProviders(<AppRoutes />, { route: '/' });
    await user.click(await screen.findByRole('button', { name: 'Start Planning' }));
    expect(await screen.findByText('Enter your email address')).toBeInTheDocument();
    expect(calls('POST', '/api/auth/send-otp')).toHaveLength(0);
  });
});
