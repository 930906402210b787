// Process-wide singletons on globalThis, under one key, by name: Next bundles route handlers and
// server actions apart, so module state is not shared between them.

export type SingletonName =
  | 'db-clients'
  | 'db-pools'
  | 'db-health'
  | 'db-probe-pools'
  | 'db-flush-history'
  | 'replay-watch'
  | 'region-registry'
  | 'metrics'
  | 'logger'
  | 'api-key-usage'
  | 'api-key-blocks'
  | 'rate-limiters'
  | 'identity-cache'
  | 'shared-reads'
  | 'invitation-mailer'
  | 'session-tokens'
  | 'region-traffic'
  | 'lag-debounce'
  | 'lag-sampler'
  | 'primary-links'
  | 'cell-registration'
  | 'write-positions'
  | 'routing-policies'
  | 'decision-log'
  | 'decision-partitions'
  | 'round-trips'
  | 'write-flights'
  | 'write-flights-recent'
  | 'primary-locator'
  | 'sso-oidc-configs';

const KEY = Symbol.for('meridian.process-singletons');

function registry(): Map<SingletonName, unknown> {
  const g = globalThis as typeof globalThis & { [KEY]?: Map<SingletonName, unknown> };
  return (g[KEY] ??= new Map());
}

/** The process's one `name`, created on first use. Call it where it is used, not once at import. */
export function processSingleton<T>(name: SingletonName, create: () => T): T {
  const all = registry();
  if (!all.has(name)) all.set(name, create());
  return all.get(name) as T;
}

/** Forgets `name`, so the next use creates it afresh (tests that point the app at a new database). */
export function resetProcessSingleton(name: SingletonName): void {
  registry().delete(name);
}
