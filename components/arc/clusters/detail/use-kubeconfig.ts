'use client';
// A cluster's kubeconfig, fetched on demand (never cached: it is a credential) and saved as a
// file; kept in state so the page can show it for copying until hidden.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorToast, trpcErrorBody, useToast } from '../../../toast';
import { useTRPC } from '../../../trpc-provider';

/** Saves text as a file through a temporary link: the browser's own download, no new tab. */
export function saveAsFile(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const kubeconfigFilename = (clusterName: string) => `${clusterName}.kubeconfig.yaml`;

export function useKubeconfig(id: string) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const [kubeconfig, setKubeconfig] = useState<string | null>(null);
  const [fetching, setFetching] = useState(false);

  const download = async (clusterName: string) => {
    setFetching(true);
    try {
      const res = await qc.fetchQuery(
        trpc.compute.clusters.kubeconfig.queryOptions({ id }, { staleTime: 0, gcTime: 0 }),
      );
      setKubeconfig(res.kubeconfig);
      saveAsFile(kubeconfigFilename(clusterName), res.kubeconfig);
    } catch (e) {
      toast(errorToast('Could not get the kubeconfig', trpcErrorBody(e)));
    } finally {
      setFetching(false);
    }
  };

  return { kubeconfig, fetching, download, hide: () => setKubeconfig(null) };
}
