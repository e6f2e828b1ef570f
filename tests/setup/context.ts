// Values the global setups hand to test files via inject().
declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDb: string;
    apiDbUrl: string;
    apiUrl: string;
    mailUrl: string;
    /** maildev's SMTP port, for a second API instance that must really send. */
    smtpPort: number;
    jwtSecret: string;
    /** The stand-in Web Push service (tests/support/push-service.ts) the API may send to. */
    pushServiceOrigin: string;
    /** VAPID keys, PUSH_SERVICE_ORIGINS and SCHEDULER_SECRET of the shared API, for a second instance. */
    notificationEnv: Record<string, string>;
  }
}
export {};
