// What other features use of notifications: the per-device "Turn on
// notifications" card (the unsubscribe page is a route of its own, loaded by app/).
export { NotificationsCard } from './components/notifications-card';
export type { PushIdentity } from '../../lib/device-push';
