import { screen, waitFor } from '@testing-library/react';
import { queryOptions } from '@tanstack/react-query';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/test-utils';
import { VoterAvatars } from './voter-avatars';
import type { Voter } from '../../../supabase/functions/_shared/contract/common';

// The one voter stack of ideas and dates: what it reads, when, and how it names them.

/** A voters read that answers what the server holds now, counting its calls. */
function votersServer(initial: Voter[]) {
  const server = { voters: initial, reads: 0 };
  const read = () => {
    server.reads += 1;
    return Promise.resolve([...server.voters]);
  };
  const options = queryOptions({ queryKey: ['plans', 'p1', 'ideas', 'voters', 'i1'], queryFn: read });
  return { server, options };
}

/** The count as the idea or slot shows it; "Someone voted" moves it, as a live update does. */
function Counted({ options, initial }: { options: ReturnType<typeof votersServer>['options']; initial: number }) {
  const [count, setCount] = useState(initial);
  return (
    <>
      <button type="button" onClick={() => setCount((n) => n + 1)}>
        Someone voted
      </button>
      <VoterAvatars voters={options} voteCount={count} />
    </>
  );
}

const ada = { id: 'u1', name: 'Ada Lovelace', isGuest: false };
const hal = { id: 'g1', name: 'Hal', isGuest: true };

describe('VoterAvatars', () => {
  it('reads the voters again when the count moves past what was read, once', async () => {
    const { server, options } = votersServer([ada]);
    const { user } = renderWithProviders(<Counted options={options} initial={1} />);
    expect(await screen.findByRole('img', { name: '1 vote: Ada Lovelace' })).toBeInTheDocument();
    expect(server.reads).toBe(1);

    // Someone else voted: the count comes first (a live update), the voters after.
    server.voters = [ada, hal];
    await user.click(screen.getByRole('button', { name: 'Someone voted' }));
    expect(await screen.findByRole('img', { name: '2 votes: Ada Lovelace, Hal (Guest)' })).toBeInTheDocument();
    expect(server.reads).toBe(2);
  });

  it('reads nothing without votes, and shows `max` initials then +N', async () => {
    const none = votersServer([]);
    const { unmount } = renderWithProviders(<VoterAvatars voters={none.options} voteCount={0} />);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(none.server.reads).toBe(0);
    unmount();

    const five = ['Ada Lovelace', 'Ben', 'Cy Young', 'Dee', 'Eve'].map((name, i) => ({ id: `v${i}`, name, isGuest: false }));
    const { server, options } = votersServer(five);
    renderWithProviders(<VoterAvatars voters={options} voteCount={5} max={4} />);
    const stack = await screen.findByRole('img', { name: /^5 votes: / });
    expect(stack).toHaveTextContent('ALBECYDE+1');
    await waitFor(() => expect(server.reads).toBe(1));
  });

  it("says a date's answers apart and outlines who said if need be", async () => {
    const { options } = votersServer([
      { ...ada, answer: 'yes' },
      { ...hal, answer: 'ifneedbe' },
      { id: 'u2', name: 'Ben', isGuest: false, answer: 'yes' },
    ]);
    renderWithProviders(<VoterAvatars voters={options} voteCount={3} />);
    const stack = await screen.findByRole('img', { name: '2 yes, 1 if need be: Ada Lovelace, Hal (Guest) (if need be), Ben' });
    expect(stack.querySelectorAll('[data-answer="ifneedbe"]')).toHaveLength(1);
    expect(stack.querySelector('[data-answer="ifneedbe"]')).toHaveTextContent('H');
  });
});
