// The routing policy draft as the editor offers it (the content's shape is
// server/routing/policy-content.ts): modes and route classes with labels, issues by field.
import type { FailoverMode, PolicyContent, RouteClass } from '~/server/routing/policy-content';
import type { RouterOutputs } from '../../trpc-provider';

export type Region = RouterOutputs['atlas']['regions']['list']['data'][number];

/** What each part of the form gets: the draft, the way to replace it, the issues by field. */
export interface DraftFields {
  draft: PolicyContent;
  onChange: (next: PolicyContent) => void;
  errors: IssuesByPath;
}

export const MODES: { value: FailoverMode; label: string; hint: string }[] = [
  {
    value: 'fixed',
    label: 'Fixed',
    hint: 'No automatic switching: the region’s own replica, else the primary, else 503.',
  },
  {
    value: 'active_standby',
    label: 'Active / standby',
    hint: 'Reads may move to the standby region’s replica while its lag is under the route’s limit and its health signal is fresh.',
  },
  {
    value: 'weighted_reads',
    label: 'Weighted reads',
    hint: 'Stateless reads spread over the allowed regions’ replicas by weight.',
  },
  {
    value: 'local_only',
    label: 'Local only',
    hint: 'Reads never leave their region: the region’s own replica, else 503 (retryable), never the primary.',
  },
];

export const ROUTES: { key: RouteClass; label: string }[] = [
  { key: 'read', label: 'Reads' },
  { key: 'list', label: 'Lists' },
  { key: 'write', label: 'Writes' },
];

/** The first message about `path` (or anything under it), from the preview's issues. */
export type IssuesByPath = Map<string, string>;

export function issuesByPath(issues: { path: (string | number)[]; message: string }[]): IssuesByPath {
  const out = new Map<string, string>();
  for (const i of issues) {
    // `allowed_regions.2` is about the list as a whole in this form.
    const key = i.path[0] === 'allowed_regions' ? 'allowed_regions' : i.path.join('.');
    if (!out.has(key)) out.set(key, i.message);
  }
  return out;
}

export function num(value: string): number {
  // An empty box is "no value" (the store says it is required), not 0.
  return value.trim() === '' ? Number.NaN : Number(value);
}
