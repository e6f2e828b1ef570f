// Values the global setups hand to test files via inject().
declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDb: string;
    apiDbUrl: string;
    apiUrl: string;
    mailUrl: string;
    jwtSecret: string;
  }
}
export {};
