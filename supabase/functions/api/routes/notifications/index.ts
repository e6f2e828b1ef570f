// Notifications: a device's Web Push subscription (./push.ts), a notification
// e-mail's one-click unsubscribe (./unsubscribe.ts), the host's reminder and
// "Decide by" deadline (./reminders.ts), and the scheduler's run that sends
// what is due (./scheduler.ts). What the changes themselves tell the group is
// written by their own transactions (_shared/delivery/outbox.ts). Spec §7;
// docs/api.md "Notifications"; docs/notifications.md.
import { Hono } from 'hono';
import { pushRoutes } from './push.ts';
import { reminderRoutes } from './reminders.ts';
import { schedulerRoutes } from './scheduler.ts';
import { unsubscribeRoutes } from './unsubscribe.ts';

export const notificationRoutes = new Hono()
  .route('/', pushRoutes)
  .route('/', unsubscribeRoutes)
  .route('/', schedulerRoutes)
  .route('/', reminderRoutes);
