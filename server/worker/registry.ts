// Every workflow the workers run, each defined by its domain. A new workflow is added here.
import { provisionServerWorkflow } from '../fleet/provision-workflow';
import { createClusterWorkflow } from '../clusters/create-workflow';
import { deleteClusterWorkflow } from '../clusters/delete-workflow';
import { moveWorkspaceWorkflow } from '../moves/workflow';
import { stepNames, workflowRegistry } from '../workflows/definition';

export const WORKFLOWS = workflowRegistry([
  createClusterWorkflow,
  deleteClusterWorkflow,
  provisionServerWorkflow,
  moveWorkspaceWorkflow,
]);

/** The step names of a registered kind, in order (for seeding runs without a worker). */
export function stepsOf(kind: string): string[] {
  const w = WORKFLOWS.get(kind);
  if (!w) throw new Error(`no workflow of kind ${kind}`);
  return stepNames(w);
}
