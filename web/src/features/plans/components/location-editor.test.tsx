import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { text } from '../../../test/mock-fetch';
import { openPlanPage as openPlan } from '../test-plan-page';
import { ben, planJson } from '../test-fixtures';
import type { Plan } from '../../../../../supabase/functions/_shared/contract/plans';

const picked = { lockedIdeaId: 'i1', lockedIdeaText: 'Board games' } satisfies Partial<Plan>;


const statusCard = async () => within(await screen.findByRole('region', { name: 'Plan Status' }));

describe('the location editor (host, once an idea is picked)', () => {
  it("sets a location with 'Set Location', Save, and shows its URLs as links", async () => {
    const { user, calls, answer } = openPlan(planJson(picked), {
      routes: {
        'POST /api/plans/p1/location': ({ body }) =>
          answer(planJson({ ...picked, location: (body as { location: string }).location })),
      },
    });
    const card = await statusCard();
    expect(card.getByText("Where we're meeting")).toBeInTheDocument();
    expect(card.getByText('Not set yet')).toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Set Location' }));
    const input = card.getByPlaceholderText('Enter location or share a link...');
    expect(input).toHaveFocus();
    expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.type(input, '  Joe’s Lanes https://maps.example.com/joes  ');
    await user.click(card.getByRole('button', { name: 'Save' }));
    expect(calls('POST', '/api/plans/p1/location')[0]!.body).toEqual({ location: 'Joe’s Lanes https://maps.example.com/joes' });

    const link = await card.findByRole('link', { name: 'https://maps.example.com/joes' });
    expect(link).toHaveAttribute('href', 'https://maps.example.com/joes');
    expect(card.getByText(/Joe’s Lanes/)).toBeInTheDocument();
    expect(card.queryByPlaceholderText('Enter location or share a link...')).not.toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('edits and clears the location; Cancel keeps it and sends nothing', async () => {
    const { user, calls, answer } = openPlan(planJson({ ...picked, location: 'The park' }), {
      routes: { 'POST /api/plans/p1/location': () => answer(planJson({ ...picked, location: null })) },
    });
    const card = await statusCard();
    await user.click(card.getByRole('button', { name: 'Edit' }));
    const input = card.getByPlaceholderText('Enter location or share a link...');
    expect(input).toHaveValue('The park');
    await user.clear(input);
    await user.click(card.getByRole('button', { name: 'Cancel' }));
    expect(card.getByText('The park')).toBeInTheDocument();
    expect(calls('POST', '/api/plans/p1/location')).toHaveLength(0);

    await user.click(card.getByRole('button', { name: 'Edit' }));
    await user.clear(card.getByPlaceholderText('Enter location or share a link...'));
    await user.click(card.getByRole('button', { name: 'Save' }));
    expect(calls('POST', '/api/plans/p1/location')[0]!.body).toEqual({ location: '' });
    expect(await card.findByRole('button', { name: 'Set Location' })).toBeInTheDocument();
  });

  it("shows the server's sentence and keeps the editor open", async () => {
    const { user } = openPlan(planJson(picked), {
      routes: { 'POST /api/plans/p1/location': () => text('Location must be at most 500 characters', 400) },
    });
    const card = await statusCard();
    await user.click(card.getByRole('button', { name: 'Set Location' }));
    await user.type(card.getByPlaceholderText('Enter location or share a link...'), 'Somewhere');
    await user.click(card.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Location must be at most 500 characters')).toBeInTheDocument();
    expect(card.getByPlaceholderText('Enter location or share a link...')).toHaveValue('Somewhere');
  });

  it('is not offered before an idea is picked, nor to members', async () => {
    openPlan(planJson());
    const card = await statusCard();
    expect(card.queryByRole('button', { name: 'Set Location' })).not.toBeInTheDocument();
    expect(card.queryByText("Where we're meeting")).not.toBeInTheDocument();
  });

  it('shows members the location, without Edit', async () => {
    openPlan(planJson({ ...picked, location: 'The park' }), { user: ben });
    const card = await statusCard();
    expect(card.getByText('The park')).toBeInTheDocument();
    expect(card.getByText('Board games')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });
});
