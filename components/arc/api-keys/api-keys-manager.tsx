'use client';
// Lists, creates and revokes the organization's API keys (tRPC). The region picker appears only
// for organizations with several regions (with "all regions" for an organization-wide key); a new
// key's secret is shown once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { trpcErrorBody } from '../../toast';
import { useTRPC } from '../../trpc-provider';
import { ErrorAlert } from '../../ui/error-alert';
import { card } from '../../ui/styles';
import { ApiKeyTable } from './api-key-table';
import { NewApiKeyForm } from './new-api-key-form';
import { NewKeySecret } from './new-key-secret';

export function ApiKeysManager({ regions, isAdmin }: { regions: string[]; isAdmin: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions({ limit: 200 }));
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  const created = {
    onSuccess: (k: { key: string }) => {
      setSecret(k.key);
      void refresh();
    },
  };
  const create = useMutation(trpc.apiKeys.create.mutationOptions(created));
  const createGlobal = useMutation(trpc.apiKeys.createGlobal.mutationOptions(created));
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: () => void refresh() }));
  const failed = create.error ?? createGlobal.error ?? revoke.error;
  const error = failed ? trpcErrorBody(failed) : null;

  return (
    <div className="space-y-6">
      {isAdmin && (
        <NewApiKeyForm
          regions={regions}
          pending={create.isPending || createGlobal.isPending}
          onCreate={({ global, ...input }) => {
            setSecret(null);
            create.reset();
            createGlobal.reset();
            return global
              ? createGlobal.mutateAsync({ name: input.name, scopes: input.scopes })
              : create.mutateAsync(input);
          }}
        />
      )}
      {secret && <NewKeySecret secret={secret} />}
      {error && <ErrorAlert requestId={error.request_id}>{error.message}</ErrorAlert>}
      <div className={card}>
        <ApiKeyTable
          keys={keys.data?.data ?? []}
          empty={keys.isLoading ? 'Loading…' : keys.data ? 'No API keys yet.' : null}
          canRevoke={isAdmin}
          onRevoke={(k) => revoke.mutate({ id: k.id })}
        />
      </div>
    </div>
  );
}
