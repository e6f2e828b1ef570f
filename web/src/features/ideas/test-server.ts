import { json, text, type RecordedRequest, type Routes } from '../../test/mock-fetch';
import type { Idea, IdeaComment, Voter } from '../../../../supabase/functions/_shared/contract/ideas';

// A small in-memory ideas API for component tests: the routes of spec §7 for
// one plan, answering like supabase/functions/api/routes/ideas/index.ts.
// Only `fetch` is mocked; the components run for real against this.

export interface FakeIdeasOptions {
  planId?: string;
  ideas?: Idea[];
  comments?: Record<string, IdeaComment[]>;
  voters?: Record<string, Voter[]>;
  /** Who calls: a member (by token) or a guest (by body guestId). */
  caller: { id: string; name: string; isGuest: boolean } | null;
  suggestions?: string[] | (() => Response);
}

export function fakeIdeasServer(options: FakeIdeasOptions) {
  const planId = options.planId ?? 'p1';
  const ideas = [...(options.ideas ?? [])];
  const comments: Record<string, IdeaComment[]> = { ...options.comments };
  const voters: Record<string, Voter[]> = { ...options.voters };
  let lockedIdeaId: string | null = null;
  let counter = 100;

  const votersOf = (id: string) => (voters[id] ??= []);
  const view = (): Idea[] =>
    [...ideas]
      .map((idea) => ({
        ...idea,
        voteCount: idea.voteCount,
        hasUserVoted: Boolean(options.caller && votersOf(idea.id).some((v) => v.id === options.caller!.id)),
        commentCount: (comments[idea.id] ?? []).length || idea.commentCount,
      }))
      .sort((a, b) => b.voteCount - a.voteCount || a.createdAt.localeCompare(b.createdAt));

  // Seed voters so counts and lists agree.
  for (const idea of ideas) {
    const list = votersOf(idea.id);
    while (list.length < idea.voteCount) list.push({ id: `seed-${idea.id}-${list.length}`, name: `Voter ${list.length + 1}`, isGuest: false });
    if (idea.hasUserVoted && options.caller && !list.some((v) => v.id === options.caller!.id)) {
      list[0] = { id: options.caller.id, name: options.caller.name, isGuest: options.caller.isGuest };
    }
  }

  const identify = (request: RecordedRequest) => {
    const body = (request.body ?? {}) as { guestId?: string };
    if (request.headers.get('Authorization')) return options.caller;
    if (body.guestId && options.caller?.isGuest && body.guestId === options.caller.id) return options.caller;
    return null;
  };

  const handlers: Array<[RegExp, string, (request: RecordedRequest, id: string) => Response]> = [
    [new RegExp(`^/api/plans/${planId}/ideas$`), 'GET', () => json(view())],
    [
      new RegExp(`^/api/plans/${planId}/ideas$`),
      'POST',
      (request) => {
        const who = identify(request);
        if (!who) return text('Join the plan first to suggest ideas', 401);
        const body = request.body as { text: string };
        const idea: Idea = {
          id: `i${++counter}`,
          text: body.text.trim(),
          authorName: who.name,
          userId: who.isGuest ? null : who.id,
          guestId: who.isGuest ? who.id : null,
          voteCount: 0,
          hasUserVoted: false,
          commentCount: 0,
          createdAt: new Date(Date.UTC(2026, 2, 2, 0, 0, counter)).toISOString(),
        };
        ideas.push(idea);
        return json(idea, 201);
      },
    ],
    [
      new RegExp(`^/api/plans/${planId}/activity-suggestions$`),
      'GET',
      () => (typeof options.suggestions === 'function' ? options.suggestions() : json({ suggestions: options.suggestions ?? [] })),
    ],
    [
      new RegExp(`^/api/plans/${planId}/pick-idea$`),
      'POST',
      (request) => {
        const { ideaId } = request.body as { ideaId: string };
        lockedIdeaId = lockedIdeaId === ideaId ? null : ideaId;
        return json({ lockedIdeaId });
      },
    ],
    [
      /^\/api\/ideas\/([^/]+)\/vote$/,
      'POST',
      (request, id) => {
        const who = identify(request);
        if (!who) return text('Join the plan first to vote', 401);
        const idea = ideas.find((i) => i.id === id);
        if (!idea) return text('Idea not found', 404);
        const list = votersOf(id);
        const index = list.findIndex((v) => v.id === who.id);
        if (index >= 0) list.splice(index, 1);
        else list.push({ id: who.id, name: who.name, isGuest: who.isGuest });
        idea.voteCount = list.length;
        return json({ voted: index < 0, voteCount: list.length });
      },
    ],
    [/^\/api\/ideas\/([^/]+)\/voters$/, 'GET', (_request, id) => json(votersOf(id))],
    [/^\/api\/ideas\/([^/]+)\/comments$/, 'GET', (_request, id) => json(comments[id] ?? [])],
    [
      /^\/api\/ideas\/([^/]+)\/comments$/,
      'POST',
      (request, id) => {
        const who = identify(request);
        if (!who) return text('Join the plan first to comment', 401);
        const comment: IdeaComment = {
          id: `c${++counter}`,
          text: (request.body as { text: string }).text.trim(),
          authorName: who.name,
          userId: who.isGuest ? null : who.id,
          guestId: who.isGuest ? who.id : null,
          createdAt: new Date(Date.UTC(2026, 2, 3, 0, 0, counter)).toISOString(),
        };
        (comments[id] ??= []).push(comment);
        return json(comment, 201);
      },
    ],
    // Deletes: who may is the server's rule (tested in tests/api); here every delete of something that exists succeeds.
    [
      /^\/api\/ideas\/([^/]+)$/,
      'DELETE',
      (_request, id) => {
        const index = ideas.findIndex((i) => i.id === id);
        if (index < 0) return text('Idea not found', 404);
        ideas.splice(index, 1);
        delete comments[id];
        if (lockedIdeaId === id) lockedIdeaId = null;
        return new Response(null, { status: 204 });
      },
    ],
    [
      /^\/api\/ideas\/([^/]+\/comments\/[^/]+)$/,
      'DELETE',
      (_request, ids) => {
        const [ideaId, , commentId] = ids.split('/');
        const list = comments[ideaId] ?? [];
        const index = list.findIndex((c) => c.id === commentId);
        if (index < 0) return text('Comment not found', 404);
        list.splice(index, 1);
        return new Response(null, { status: 204 });
      },
    ],
  ];

  /** Routes for mockFetch: pattern routes behind a lookup (mockFetch reads `routes["METHOD /path"]`). */
  function withRoutes(fixed: Routes): Routes {
    return new Proxy(fixed, {
      get(target, key) {
        if (typeof key !== 'string') return undefined;
        if (key in target) return target[key];
        const [method, path] = key.split(' ');
        for (const [pattern, verb, handler] of handlers) {
          const match = verb === method && pattern.exec(path ?? '');
          if (match) return (request: RecordedRequest) => handler(request, decodeURIComponent(match[1] ?? ''));
        }
        return undefined;
      },
    });
  }

  return {
    routes: withRoutes,
    ideas,
    comments,
    voters,
    get lockedIdeaId() {
      return lockedIdeaId;
    },
  };
}

/** The URLs `fetch` was called with (mockFetch records paths without the query string). */
export function fetchedUrls(): string[] {
  const calls = (globalThis.fetch as unknown as { mock?: { calls: unknown[][] } }).mock?.calls ?? [];
  return calls.map(([input]) => String(input));
}
