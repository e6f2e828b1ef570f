import { json, meRoute, mockFetch, noContent, text, type RecordedRequest, type Routes } from '../../test/mock-fetch';
import { ada } from '../plans/test-fixtures';
import type { CatalogItem, UserInterest } from '../../../../supabase/functions/_shared/contract/interests';

// The interests API in memory, for component tests (only fetch is mocked).

export const catalog: CatalogItem[] = [
  ['Board Games', 'gamepad'],
  ['Food & Dining', 'utensils'],
  ['Hiking & Outdoors', 'tree'],
  ['Travel', 'globe'],
  ['Coffee', 'coffee'],
  ['Live Music', 'music'],
  ['Movies', 'film'],
  ['Reading', 'book'],
].map(([name, icon], index) => ({ id: `00000000-0000-4000-8000-00000000000${index}`, name: name!, icon: icon! }));

const ADDED_AT = '2026-03-01T10:00:00.000Z';

/** An in-memory /api/users/me/interests for one user (each answered with when it was added). */
export function interestsApi(initial: Array<Omit<UserInterest, 'createdAt'>>, routes: Routes = {}) {
  const interests: UserInterest[] = initial.map((interest) => ({ ...interest, createdAt: ADDED_AT }));
  let counter = 0;
  return mockFetch({
    'GET /api/auth/me': meRoute(ada),
    'GET /api/interests/catalog': () => json(catalog),
    'GET /api/users/me/interests': () => json(interests),
    'POST /api/users/me/interests': (request: RecordedRequest) => {
      const body = request.body as { freeFormText?: string; catalogId?: string };
      const textValue = body.freeFormText ?? catalog.find((c) => c.id === body.catalogId)!.name;
      if (interests.some((i) => i.freeFormText.toLowerCase() === textValue.toLowerCase())) {
        return text('You already have that interest', 409);
      }
      const interest = { id: `ui${++counter}`, freeFormText: textValue, catalogId: body.catalogId ?? null, createdAt: ADDED_AT };
      interests.push(interest);
      return json(interest, 201);
    },
    ...Object.fromEntries(
      ['ui0', 'ui1', 'ui2', 'ui3', 'x1', 'x2', 'x3'].map((id) => [
        `DELETE /api/users/me/interests/${id}`,
        () => {
          const index = interests.findIndex((i) => i.id === id);
          if (index < 0) return text('Interest not found', 404);
          interests.splice(index, 1);
          return noContent();
        },
      ]),
    ),
    ...routes,
  });
}
