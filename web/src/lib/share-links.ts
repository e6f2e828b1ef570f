// Links that open a messaging app with a prefilled message.

export function whatsAppHref(message: string): string {
  return `https://wa.me/?text=${encodeURIComponent(message)}`;
}

/** `sms:?&body=`: the form both iOS and Android read (no recipient). */
export function smsHref(message: string): string {
  return `sms:?&body=${encodeURIComponent(message)}`;
}
