'use client';
// The create form's values: the user's picks, else the server's defaults for the chosen project
// (one cascade for the console and the API), else the template's own minimum and version.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC, type RouterOutputs } from '../../../trpc-provider';

export type Template = RouterOutputs['compute']['templates']['list']['data'][number];
export type RegionSource = RouterOutputs['compute']['clusters']['defaults']['region_source'];

interface Choices {
  project?: string;
  template?: string;
  nodes?: number;
  version?: string;
  region?: string;
}

export function useClusterDraft() {
  const trpc = useTRPC();
  const [choices, setChoices] = useState<Choices>({});
  const projects = useQuery(trpc.projects.list.queryOptions({ limit: 200 }));
  const templates = useQuery(trpc.compute.templates.list.queryOptions({}));
  // The previous project's defaults stay on screen while the next project's load: no flash.
  const defaults = useQuery(
    trpc.compute.clusters.defaults.queryOptions(choices.project ? { project_id: choices.project } : {}, {
      placeholderData: keepPreviousData,
    }),
  );

  const d = defaults.data;
  const projectList = [...(projects.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const templateList = templates.data?.data ?? [];
  const template = templateList.find((t) => t.id === (choices.template ?? d?.template)) ?? templateList[0];
  // The server's node count and version are for its template; another template starts from its own.
  const forTemplate = d && template?.id === d.template ? d : null;
  const version =
    choices.version && template?.versions.includes(choices.version)
      ? choices.version
      : (forTemplate?.version ?? template?.default_version);

  const patch = (next: Choices) => setChoices((c) => ({ ...c, ...next }));
  return {
    loading: projects.isPending || templates.isPending || defaults.isPending,
    error: defaults.data ? null : defaults.error,
    projects: projectList,
    templates: templateList,
    projectId: choices.project ?? d?.project_id ?? '',
    template,
    nodeCount: choices.nodes ?? forTemplate?.node_count ?? template?.min_nodes ?? 1,
    version,
    region: choices.region ?? d?.region ?? '',
    /** Where the region came from; null once the user picked one. */
    regionSource: choices.region === undefined ? (d?.region_source ?? null) : null,
    /** The project whose defaults these are (while the next one loads, still the previous). */
    defaultsProjectName: projectList.find((p) => p.id === d?.project_id)?.name,
    choose: {
      project: (id: string) => patch({ project: id }),
      template: (id: string) => patch({ template: id, nodes: undefined }),
      nodes: (n: number) => patch({ nodes: n }),
      version: (v: string) => patch({ version: v }),
      region: (r: string) => patch({ region: r }),
    },
  };
}
