import type { Idea, IdeaComment } from '../../../../supabase/functions/_shared/contract/ideas';

// API-shaped ideas data for tests (what the network answers).

export function ideaJson(overrides: Partial<Idea> = {}): Idea {
  return {
    id: 'i1',
    text: 'Bowling',
    authorName: 'Ada Lovelace',
    userId: 'u1',
    guestId: null,
    voteCount: 0,
    hasUserVoted: false,
    commentCount: 0,
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function commentJson(overrides: Partial<IdeaComment> = {}): IdeaComment {
  return { id: 'c1', text: 'Count me in', authorName: 'Ben', createdAt: '2026-03-01T11:00:00.000Z', ...overrides };
}
