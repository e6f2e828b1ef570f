// The public entry of features/calendar: what other features may use (eslint.config.js).
// Everything else in the folder is the feature's own.
export { canAddToCalendar } from './can-add-to-calendar';
export { LazyAddToCalendarMenu } from './lazy-add-to-calendar-menu';
export { CalendarFeedCard } from './components/calendar-feed-card';
