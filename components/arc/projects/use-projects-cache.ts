'use client';
// The Projects page's list query and edits to its cached copy: optimistic changes show at once
// and are replaced (or undone) when the server answers.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '../../trpc-provider';

export type Project = RouterOutputs['projects']['list']['data'][number];

const LIST_INPUT = { limit: 200 };

export function useProjectsCache() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const key = trpc.projects.list.queryKey(LIST_INPUT);
  return {
    query: useQuery(trpc.projects.list.queryOptions(LIST_INPUT)),
    edit: (change: (projects: Project[]) => Project[]) =>
      qc.setQueryData(key, (old) => (old ? { ...old, data: change(old.data) } : old)),
    refresh: () => qc.invalidateQueries(trpc.projects.list.pathFilter()),
  };
}
