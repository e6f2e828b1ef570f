import { describe, expect, it } from 'vitest';
import {
  checkWrite,
  commentToggleLabel,
  mayDelete,
  normalizeIdeaText,
  sortIdeasByVotes,
  topIdeaId,
} from './ideas';
import { ideaJson } from './test-fixtures';

describe('sortIdeasByVotes', () => {
  it('puts the most votes first, ties oldest first, without touching the input', () => {
    const ideas = [
      ideaJson({ id: 'a', voteCount: 1, createdAt: '2026-03-01T10:00:00.000Z' }),
      ideaJson({ id: 'b', voteCount: 3, createdAt: '2026-03-01T12:00:00.000Z' }),
      ideaJson({ id: 'c', voteCount: 1, createdAt: '2026-03-01T09:00:00.000Z' }),
      ideaJson({ id: 'd', voteCount: 0, createdAt: '2026-03-01T08:00:00.000Z' }),
    ];
    expect(sortIdeasByVotes(ideas).map((idea) => idea.id)).toEqual(['b', 'c', 'a', 'd']);
    expect(ideas.map((idea) => idea.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('breaks a full tie by id so the order never flickers', () => {
    const same = { voteCount: 2, createdAt: '2026-03-01T10:00:00.000Z' };
    expect(sortIdeasByVotes([ideaJson({ id: 'y', ...same }), ideaJson({ id: 'x', ...same })]).map((i) => i.id)).toEqual(['x', 'y']);
  });
});

describe('topIdeaId', () => {
  it('is the leader once it has at least 1 vote', () => {
    expect(topIdeaId([ideaJson({ id: 'a', voteCount: 1 }), ideaJson({ id: 'b', voteCount: 0 })])).toBe('a');
  });

  it('is nobody without votes or ideas', () => {
    expect(topIdeaId([ideaJson({ id: 'a', voteCount: 0 })])).toBeNull();
    expect(topIdeaId([])).toBeNull();
  });
});

describe('labels', () => {
  it("says 'Add comment' without comments, else 'N comment(s)'", () => {
    expect(commentToggleLabel(0)).toBe('Add comment');
    expect(commentToggleLabel(1)).toBe('1 comment');
    expect(commentToggleLabel(12)).toBe('12 comments');
  });
});

describe('checkWrite (spec §5)', () => {
  const guest = { kind: 'guest', name: 'Hal' } as const;
  const member = { kind: 'member', email: 'ada@example.com' } as const;

  it('needs a plan id and text', () => {
    expect(checkWrite({ planId: '', text: 'Bowling', writer: member })).toBe('Plan ID and idea text required');
    expect(checkWrite({ planId: 'p1', text: '   ', writer: member })).toBe('Plan ID and idea text required');
  });

  it('needs a guest name or a signed-in e-mail', () => {
    expect(checkWrite({ planId: 'p1', text: 'Bowling', writer: null })).toBe('User authentication required');
    expect(checkWrite({ planId: 'p1', text: 'Bowling', writer: { kind: 'guest', name: ' ' } })).toBe('User authentication required');
    expect(checkWrite({ planId: 'p1', text: 'Bowling', writer: { kind: 'member', email: '' } })).toBe('User authentication required');
  });

  it('lets a guest or a member write; a comment needs no plan id', () => {
    expect(checkWrite({ planId: 'p1', text: 'Bowling', writer: guest })).toBeNull();
    expect(checkWrite({ planId: 'p1', text: 'Bowling', writer: member })).toBeNull();
    expect(checkWrite({ text: 'Nice', writer: guest })).toBeNull();
  });
});

it('compares idea texts trimmed, any case, inner spaces collapsed', () => {
  expect(normalizeIdeaText('  Have a   Game night ')).toBe('have a game night');
});

describe('mayDelete', () => {
  const byMember = { userId: 'mia', guestId: null };
  const byGuest = { userId: null, guestId: 'gus' };
  it('the host and co-hosts delete anything; an author their own; nobody else', () => {
    expect(mayDelete(byMember, true, { userId: 'host' })).toBe(true);
    expect(mayDelete(byGuest, true, { userId: 'cora' })).toBe(true);
    expect(mayDelete(byMember, false, { userId: 'mia' })).toBe(true);
    expect(mayDelete(byGuest, false, { guestId: 'gus' })).toBe(true);
    expect(mayDelete(byMember, false, { userId: 'sam' })).toBe(false);
    expect(mayDelete(byGuest, false, { guestId: 'olga' })).toBe(false);
    expect(mayDelete(byMember, true, null)).toBe(false);
    expect(mayDelete(byMember, true, undefined)).toBe(false);
  });
  it('a gone author (null ids) matches no visitor but the host and co-hosts', () => {
    const orphan = { userId: null, guestId: null };
    expect(mayDelete(orphan, false, { guestId: 'gus' })).toBe(false);
    expect(mayDelete(orphan, false, { userId: 'mia' })).toBe(false);
    expect(mayDelete(orphan, true, { userId: 'host' })).toBe(true);
  });
});
