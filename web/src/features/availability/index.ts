// The public entry of features/availability: what other features may use (eslint.config.js).
// Everything else in the folder is the feature's own.
export { DashboardAvailabilityTab } from './components/dashboard-availability-tab';
export { useHasVotedOnDates } from './voted';
