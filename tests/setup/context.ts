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
  }
}
export {};
