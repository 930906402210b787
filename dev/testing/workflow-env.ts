// Environment for tests that run the workflow workers: steps, retries and polls in fractions of
// a second, and a setter that makes the app read the environment again.
import { resetEnvCache } from '../../server/env';

export const FAST_WORKFLOWS = {
  WORKFLOW_STEP_MS: '60',
  WORKFLOW_STEP_TIMEOUT_SECONDS: '2',
  WORKFLOW_MAINTENANCE_SECONDS: '1',
  WORKFLOW_RETRY_DELAY_SECONDS: '1',
  WORKFLOW_RETRY_LIMIT: '4',
  WORKFLOW_POLL_SECONDS: '0.5',
  WORKFLOW_FAULTS: '',
};

export function setEnv(vars: Record<string, string>): void {
  Object.assign(process.env, vars);
  resetEnvCache();
}
