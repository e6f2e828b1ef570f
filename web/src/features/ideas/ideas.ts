// Pure rules of the ideas feature (spec §2 Ideas tab, §5, §9). Tested in
// ideas.test.ts; the components only call these.
import type { Idea } from '../../../../supabase/functions/_shared/contract/ideas';

/** Spec §8 client-side errors. */
const PLAN_ID_AND_TEXT_REQUIRED = 'Plan ID and idea text required';
const USER_AUTHENTICATION_REQUIRED = 'User authentication required';
export { JOIN_TO_VOTE } from '../../../../supabase/functions/_shared/contract/common';

/**
 * Most votes first; ties keep the server's order (oldest first), so a new
 * idea never jumps above an older one with the same count. Not in place.
 */
export function sortIdeasByVotes<T extends Pick<Idea, 'voteCount' | 'createdAt' | 'id'>>(ideas: readonly T[]): T[] {
  return [...ideas].sort(
    (a, b) =>
      b.voteCount - a.voteCount ||
      a.createdAt.localeCompare(b.createdAt) ||
      a.id.localeCompare(b.id),
  );
}

/** The 'Top Idea': the leader of the sorted list, only once it has at least 1 vote. */
export function topIdeaId(sorted: readonly Pick<Idea, 'id' | 'voteCount'>[]): string | null {
  const leader = sorted[0];
  return leader && leader.voteCount >= 1 ? leader.id : null;
}

/** The comments toggle: 'Add comment' with none, else 'N comment(s)'. */
export function commentToggleLabel(count: number): string {
  if (count <= 0) return 'Add comment';
  return `${count} ${count === 1 ? 'comment' : 'comments'}`;
}

/** Who writes (spec §5): a guest by name, a member by e-mail. */
export type IdeaWriter = { kind: 'guest'; name: string } | { kind: 'member'; email: string } | null | undefined;

/**
 * Spec §5 checks before adding an idea or a comment: the error sentence, or
 * null when the request may go. `planId` is only required for ideas.
 */
export function checkWrite({ planId, text, writer }: { planId?: string | null; text: string; writer: IdeaWriter }): string | null {
  if (planId === '' || planId === null || text.trim() === '') return PLAN_ID_AND_TEXT_REQUIRED;
  const identified = writer?.kind === 'guest' ? writer.name.trim() : writer?.kind === 'member' ? writer.email.trim() : '';
  if (!identified) return USER_AUTHENTICATION_REQUIRED;
  return null;
}

/** Trimmed, inner whitespace collapsed, lower-cased: how idea texts are compared (as the server does). */
export function normalizeIdeaText(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Who may delete an idea or a comment (docs/decisions/0065-moderation.md):
 * the plan's host or a co-host (`runsPlan`, the plans feature's usePlanRole;
 * docs/decisions/0098-cohosts.md), or its author (the member by account, the
 * guest by id). The server decides; this only shows the action to those it
 * would allow (a guest's device restored by name still gets a 403 with its
 * sentence).
 */
export function mayDelete(
  writing: { userId?: string | null; guestId?: string | null },
  runsPlan: boolean,
  visitor: { userId?: string; guestId?: string } | null | undefined,
): boolean {
  if (!visitor) return false;
  if (visitor.userId) return runsPlan || visitor.userId === writing.userId;
  return visitor.guestId !== undefined && visitor.guestId === writing.guestId;
}
