// A workspace move the failover drill starts before its action (docs/flows/moves.md): the action
// comes as soon as its export is done, and it must complete at the target, every table verified.
import { connectAdmin, sleep } from './failover-databases';
import type { Call } from './failover-load';

export interface MoveToStart {
  /** The operator who moves it (Atlas). Workers must run both the source and the target region. */
  operator: { cookie: string };
  slug: string;
  /** The target region, allowed for the organization already. */
  to: string;
}

/** What came of the move. */
export interface MoveOutcome {
  /** Where it stood at the action (after its export), and how it ended. */
  atAction: MoveStarted['atAction'];
  status: string | undefined;
  error: string | null;
  /** Tables verified at the target, and how many of them matched the export. */
  tables: number;
  matched: number;
  /** Steps that succeeded of all, and the most attempts one step took. */
  steps: { succeeded: number; of: number; maxAttempts: number };
  /** Its steps that ran on the new primary: those that finished after the action (wall clock). */
  stepsAfterAction: string[];
  readOnlySeconds: number | null;
}

interface MoveView {
  id: string;
  status: string;
  step: string | null;
  error: string | null;
  read_only: { seconds: number | null };
  tables: { match: boolean | null }[];
  steps: { name: string; status: string; attempts: number; finished_at: string | null }[];
}

/** A move started, and where it stood when the drill's action came. */
export interface MoveStarted {
  id: string;
  /** The organization's status (`moving`: read-only) and the export's, when the action came. */
  atAction: { workspace: string; export: string | null };
}

/**
 * Starts the move (202) and waits (at most 30 s, asking the primary every 10 ms) until its export
 * is done: the action then finds the workspace read-only, its bundle sealed, its verify next.
 * (Killed while the export ran, the old primary once stayed "starting" for over 90 s after its
 * pg_rewind in CI, cause unknown; since, the test keeps Patroni's logs. Stop 44's note.)
 * What refuses or stalls the move is a violation. `adminPrimary`: a superuser's URL.
 */
export async function startMove(
  call: Call,
  m: MoveToStart,
  adminPrimary: string,
  violations: string[],
): Promise<MoveStarted | undefined> {
  const r = await call('POST', '/v1/atlas/moves', m.operator, { slug: m.slug, to_region: m.to });
  const view = r?.body as { id?: string; run_id?: string } | null;
  if (r?.res.status !== 202 || !view?.id || !view.run_id) {
    violations.push(`move of ${m.slug} to ${m.to}: ${r?.res.status} ${JSON.stringify(r?.body)}`);
    return undefined;
  }
  const admin = await connectAdmin(adminPrimary);
  try {
    const by = performance.now() + 30_000;
    for (;;) {
      const { rows } = await admin.query<{ org: string; step: string | null }>(
        `SELECT o.status AS org, s.status AS step FROM workspace_moves m JOIN organizations o ON o.id = m.org_id
           LEFT JOIN workflow_steps s ON s.run_id = m.run_id AND s.name = 'export' WHERE m.id = $1`,
        [view.id],
      );
      const now = rows[0];
      if (now?.step === 'succeeded') return { id: view.id, atAction: { workspace: now.org, export: now.step } };
      if (performance.now() > by || now?.step === 'failed') {
        violations.push(`move of ${m.slug}: its export not done (workspace ${now?.org}, export ${now?.step})`);
        return { id: view.id, atAction: { workspace: now?.org ?? 'unknown', export: now?.step ?? null } };
      }
      await sleep(10);
    }
  } finally {
    await admin.end().catch(() => {});
  }
}

/** Waits (up to `ms`) for the move to end, then tells how it went; `actionAt` is the action's Date.now(). */
export async function settleMove(
  call: Call,
  m: MoveToStart,
  started: MoveStarted,
  actionAt: number,
  ms = 120_000,
): Promise<MoveOutcome> {
  const id = started.id;
  const by = performance.now() + ms;
  let view: MoveView | undefined;
  while (performance.now() < by) {
    const r = await call('GET', `/v1/atlas/moves/${id}`, m.operator);
    if (r?.res.status === 200) view = r.body as unknown as MoveView;
    if (view && ['completed', 'failed', 'cancelled'].includes(view.status)) break;
    await sleep(500);
  }
  const steps = view?.steps ?? [];
  return {
    atAction: started.atAction,
    status: view?.status,
    error: view?.error ?? null,
    tables: view?.tables.length ?? 0,
    matched: view?.tables.filter((t) => t.match === true).length ?? 0,
    steps: {
      succeeded: steps.filter((s) => s.status === 'succeeded').length,
      of: steps.length,
      maxAttempts: Math.max(0, ...steps.map((s) => s.attempts)),
    },
    stepsAfterAction: steps.filter((s) => s.finished_at && Date.parse(s.finished_at) > actionAt).map((s) => s.name),
    readOnlySeconds: view?.read_only.seconds ?? null,
  };
}
