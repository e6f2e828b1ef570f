import { lazy } from 'react';

/**
 * The "Add to Calendar" menu, loaded when first shown: it carries the
 * calendar export (the `ics` package), which no other part of a page needs.
 * Render it inside <Suspense>.
 */
export const LazyAddToCalendarMenu = lazy(() =>
  import('./components/add-to-calendar-menu').then((m) => ({ default: m.AddToCalendarMenu })),
);
