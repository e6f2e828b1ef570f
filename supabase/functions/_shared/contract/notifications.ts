// The notification endpoints' answers and sentences (docs/api.md
// "Notifications"; docs/notifications.md).
import { z } from 'zod/mini';

/** GET /api/push/public-key: the VAPID application server key (uncompressed P-256 point, base64url). */
export const pushPublicKeySchema = z.lazy(() => z.object({ publicKey: z.string() }));
export type PushPublicKey = z.infer<typeof pushPublicKeySchema>;

/** POST /api/plans/{id}/remind: how many people the reminder reached. */
export const remindResultSchema = z.lazy(() => z.object({ reminded: z.number() }));
export type RemindResult = z.infer<typeof remindResultSchema>;

/** GET (and POST, DELETE) /api/unsubscribe/{token}: the plan the link is about, and whether its e-mails are on. */
export const planEmailsStateSchema = z.lazy(() => z.object({ planTitle: z.string(), emails: z.boolean() }));
export type PlanEmailsState = z.infer<typeof planEmailsStateSchema>;

/**
 * The payload of every Web Push message (encrypted to the device): the plan's
 * title, what happened in one line, the page to open (a path of the app) and
 * a tag per event, so a message delivered twice replaces the first. The
 * server writes it (_shared/delivery/notify.ts pushPayload); the service worker shows
 * it (web/src/service-worker/sw.ts).
 */
export const pushMessageSchema = z.lazy(() => z.object({ title: z.string(), body: z.string(), url: z.string(), tag: z.string() }));
export type PushMessage = z.infer<typeof pushMessageSchema>;

/**
 * The host's "Remind them": at most one per plan in this window (the API's
 * `remind` limit, _shared/limits.ts; the web app says when the next may go).
 */
export const REMIND_WINDOW_SECONDS = 12 * 3600;

export const NOTIFICATIONS_NEED_IDENTITY = 'Sign in or continue as a guest to turn on notifications';
export const PUSH_ENDPOINT_NOT_ALLOWED = 'Notifications can only be sent through a known push service';
export const PUSH_KEYS_INVALID = 'The subscription keys must be a P-256 public key and a 16-byte secret';
export const PUSH_NOT_CONFIGURED = 'Notifications are not set up on this server';
export const UNSUBSCRIBE_LINK_INVALID = 'This unsubscribe link is not valid';
/** 410: a genuine link past its days, or mailed to an address the account no longer uses (docs/api.md "Notifications"). */
export const UNSUBSCRIBE_LINK_EXPIRED = 'This unsubscribe link has expired, please sign in to change the e-mails about this plan';
export const UNSUBSCRIBE_PLAN_GONE = 'This plan no longer exists';
export const DEADLINE_INVALID = 'Deadline must be a date and time (ISO 8601), or none to remove it';
export const DEADLINE_IN_PAST = 'The deadline must be in the future';
