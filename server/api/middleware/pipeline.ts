// The request middleware's stages in the order they run; moving a stage moves a security check, so
// each line says why it sits where it does (pipeline.test.ts pins the order).
import type { RequestState, Stage } from './stage';
import { access } from './stages/access';
import { consistency } from './stages/consistency';
import { enterRegion } from './stages/enter-region';
import { identify } from './stages/identify';
import { idempotency } from './stages/idempotency';
import { nulInput } from './stages/nul-input';
import { policy } from './stages/policy';
import { recheckHints } from './stages/recheck-hints';
import { resolve } from './stages/resolve-region';
import { sameOrigin } from './stages/same-origin';
import { scope } from './stages/scope';
import { sessionAtHome } from './stages/session-at-home';
import { workspaceWritable } from './stages/workspace-writable';

export const REQUEST_STAGES: readonly Stage[] = [
  consistency, //       header syntax only: a malformed bookmark or key is refused before any lookup
  identify, //          every later stage decides from the verified caller, never from its claims
  policy, //            needs the caller's organization; before refusals, so their records name it
  access, //            the route's audience, before resolution: a refused caller costs no routing work
  scope, //             after access: a stranger is 401 unauthenticated, not a scope's 403
  sameOrigin, //        before the write guards: a cross-site forgery learns nothing of the workspace
  sessionAtHome, //     a moved workspace's session is sent home before its writes are judged here
  workspaceWritable, // a moving workspace's writes stop before input is read or a database touched
  idempotency, //       needs the policy and the consistency stage's key; before input is read
  nulInput, //          input is read only for a caller who may call, and checked before resolve reads it
  resolve, //           the cascade needs the verified identity, the policy's regions and the input
  recheckHints, //      the hints narrow what the verified cascade chose, before the region is entered
  enterRegion, //       last: nothing enters a region (ID, headers, the procedure) before every check
];

/** Runs the stages in order; the first to throw stops the rest. */
export async function runStages(s: RequestState, stages: readonly Stage[] = REQUEST_STAGES): Promise<void> {
  for (const stage of stages) {
    const pending = stage.run(s);
    if (pending) await pending;
  }
}
