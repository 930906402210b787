// How long a browser session lasts, in seconds: Auth.js' own sessions (./next-auth.ts) and the
// ones the global address is handed (./handoff.ts), which imports this without loading Auth.js.
export const SESSION_MAX_AGE = 12 * 60 * 60;
