import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearGuest,
  forgetGuestSecret,
  getGuestSecret,
  getGuestSession,
  getGuestSessionFor,
  getGuestVotes,
  markContinuedSeen,
  setGuestSession,
  setGuestVotes,
  toggleGuestIdeaVote,
  toggleGuestTimeSlotVote,
  useGuestSession,
  useGuestVotes,
} from './guest-storage.ts';

const session = { id: 'g1', name: 'Sam', planId: 'p1' };

beforeEach(() => {
  localStorage.clear();
  clearGuest();
});

describe('guest session', () => {
  it("keeps this device's secret inside the spec's guestSession item", () => {
    setGuestSession({ ...session, secret: 'device-secret' });
    expect(JSON.parse(localStorage.getItem('guestSession')!)).toEqual({ ...session, secret: 'device-secret' });
    expect(getGuestSecret()).toBe('device-secret');
    expect(localStorage.length).toBe(1);
  });

  it('reads a session stored before secrets existed as a session without one', () => {
    localStorage.setItem('guestSession', JSON.stringify(session));
    setGuestVotes({ planIdeaIds: [], timeSlotIds: [] }); // any write refreshes the cache
    expect(getGuestSession()).toEqual(session);
    expect(getGuestSecret()).toBeNull();
  });

  it('forgetGuestSecret keeps who the guest was and its votes, and drops only the secret', () => {
    setGuestSession({ ...session, secret: 'device-secret' });
    toggleGuestIdeaVote('i1');
    forgetGuestSecret();
    expect(getGuestSession()).toEqual(session);
    expect(JSON.parse(localStorage.getItem('guestSession')!)).toEqual(session);
    expect(getGuestVotes().planIdeaIds).toEqual(['i1']);
  });

  it('markContinuedSeen notes the told restore in the same item, only for the stored guest', () => {
    setGuestSession({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' });
    markContinuedSeen('g2', '2026-03-14T19:05:00.000Z');
    expect(getGuestSession()).toEqual({ id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret' });
    markContinuedSeen('g1', '2026-03-14T19:05:00.000Z');
    expect(JSON.parse(localStorage.getItem('guestSession')!)).toEqual({
      id: 'g1', name: 'Sam', planId: 'p1', secret: 'device-secret', continuedSeenAt: '2026-03-14T19:05:00.000Z',
    });
    expect(Object.keys(localStorage)).not.toContain('guestContinuedSeen');
  });

  it('round-trips through localStorage and is scoped to its plan', () => {
    expect(getGuestSession()).toBeNull();
    setGuestSession(session);
    expect(JSON.parse(localStorage.getItem('guestSession')!)).toEqual(session);
    expect(getGuestSessionFor('p1')).toEqual(session);
    expect(getGuestSessionFor('p2')).toBeNull();
    expect(getGuestSessionFor(undefined)).toBeNull();
  });

  it('treats corrupt or incomplete data as no session', () => {
    localStorage.setItem('guestSession', '{not json');
    setGuestVotes({ planIdeaIds: [], timeSlotIds: [] }); // any write refreshes the cache
    expect(getGuestSession()).toBeNull();
    localStorage.setItem('guestSession', JSON.stringify({ id: 'g1', name: 'Sam' }));
    setGuestVotes({ planIdeaIds: [], timeSlotIds: [] });
    expect(getGuestSession()).toBeNull();
  });

  it('a different guest starts with no votes; the same guest keeps them', () => {
    setGuestSession(session);
    toggleGuestIdeaVote('i1');
    setGuestSession({ ...session, name: 'Sam' });
    expect(getGuestVotes().planIdeaIds).toEqual(['i1']);
    setGuestSession({ id: 'g2', name: 'Alex', planId: 'p1' });
    expect(getGuestVotes()).toEqual({ planIdeaIds: [], timeSlotIds: [] });
  });

  it('clearGuest removes both guest items and leaves the auth token alone', () => {
    localStorage.setItem('authToken', 't');
    setGuestSession(session);
    toggleGuestTimeSlotVote('s1');
    clearGuest();
    expect(localStorage.getItem('guestSession')).toBeNull();
    expect(localStorage.getItem('guestVotes')).toBeNull();
    expect(localStorage.getItem('authToken')).toBe('t');
  });
});

describe('guest votes', () => {
  it('toggles: added when absent, removed when present (spec §4)', () => {
    toggleGuestIdeaVote('i1');
    toggleGuestIdeaVote('i2');
    expect(getGuestVotes().planIdeaIds).toEqual(['i1', 'i2']);
    toggleGuestIdeaVote('i1');
    expect(getGuestVotes().planIdeaIds).toEqual(['i2']);
    toggleGuestTimeSlotVote('s1');
    expect(getGuestVotes()).toEqual({ planIdeaIds: ['i2'], timeSlotIds: ['s1'] });
  });

  it('never stores duplicates', () => {
    setGuestVotes({ planIdeaIds: ['a', 'a', 'b'], timeSlotIds: ['s', 's'] });
    expect(JSON.parse(localStorage.getItem('guestVotes')!)).toEqual({ planIdeaIds: ['a', 'b'], timeSlotIds: ['s'] });
  });
});

describe('hooks', () => {
  it('re-render on changes', () => {
    const { result } = renderHook(() => ({ session: useGuestSession(), votes: useGuestVotes() }));
    expect(result.current.session).toBeNull();
    act(() => setGuestSession(session));
    expect(result.current.session).toEqual(session);
    act(() => toggleGuestIdeaVote('i9'));
    expect(result.current.votes.planIdeaIds).toEqual(['i9']);
    act(() => clearGuest());
    expect(result.current.session).toBeNull();
    expect(result.current.votes.planIdeaIds).toEqual([]);
  });
});
