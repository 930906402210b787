// pg-boss ships no types for its Manager module: what pgboss-completions.ts patches on it.
declare module 'pg-boss/src/manager.js' {
  type Completion = (this: unknown, ...args: unknown[]) => Promise<unknown>;
  const Manager: { prototype: Record<'complete' | 'fail', Completion> };
  export default Manager;
}
