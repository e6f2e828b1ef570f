import { lazy } from 'react';

// The answer screens load with the page that shows them once a date is
// locked, never with the join page (the entry): docs/decisions/0103.
export const LazyAreYouComing = lazy(() => import('./components/are-you-coming').then((m) => ({ default: m.AreYouComing })));
export const LazyAnswerForDialog = lazy(() => import('./components/answer-for-dialog').then((m) => ({ default: m.AnswerForDialog })));
