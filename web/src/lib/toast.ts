import { notifications } from '@mantine/notifications';
import { getServerMessage } from './api-error';

// Spec §9: one toast at a time. A new toast replaces the one on screen rather
// than waiting in a queue behind it.
function show(title: string, message: string, color: string): void {
  notifications.clean();
  notifications.show({ title, message, color });
}

export function showSuccessToast(title: string, message: string): void {
  show(title, message, 'teal');
}

/** The destructive toast of spec §8: the server's sentence, else the fallback. */
export function showErrorToast(error: unknown, fallback: string, title = 'Error'): void {
  show(title, getServerMessage(error) ?? fallback, 'red');
}

/** A destructive toast with a fixed text, for failures that never reached a server. */
export function showErrorMessage(title: string, message: string): void {
  show(title, message, 'red');
}
