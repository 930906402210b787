'use client';
// Lists (a page at a time), creates and revokes the organization's API keys (server actions, a
// tRPC list); a new key's secret is shown once.
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState, useTransition } from 'react';
import type { ErrorBody } from '~/server/errors';
import { createApiKey, createGlobalApiKey, revokeApiKey } from '~/server/api/actions/api-keys';
import { useTRPC } from '../../trpc-provider';
import { ErrorAlert } from '../../ui/error-alert';
import { LoadMore } from '../../ui/load-more';
import { card } from '../../ui/styles';
import { ApiKeyTable } from './api-key-table';
import { NewApiKeyForm } from './new-api-key-form';
import { NewKeySecret } from './new-key-secret';

type ActionError = ErrorBody['error'];

export function ApiKeysManager({ regions, isAdmin }: { regions: string[]; isAdmin: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  // Newest first, 100 a page: one page holds every key an organization may have active.
  const keys = useInfiniteQuery(
    trpc.apiKeys.list.infiniteQueryOptions(
      { limit: 100 },
      { getNextPageParam: (last) => last.next_cursor ?? undefined },
    ),
  );
  const [secret, setSecret] = useState<string | null>(null);
  // A refused create and a refused revoke each stay until that action is tried again.
  const [createError, setCreateError] = useState<ActionError | null>(null);
  const [revokeError, setRevokeError] = useState<ActionError | null>(null);
  const [creating, startCreate] = useTransition();
  const refresh = () => qc.invalidateQueries(trpc.apiKeys.list.pathFilter());
  const error = createError ?? revokeError;

  const create = ({ global, ...input }: Parameters<typeof createApiKey>[0] & { global?: boolean }) =>
    new Promise<void>((resolve, reject) => {
      setSecret(null);
      setCreateError(null);
      startCreate(async () => {
        const res = global
          ? await createGlobalApiKey({ name: input.name, scopes: input.scopes })
          : await createApiKey(input);
        if (!res.ok) {
          setCreateError(res.error);
          reject(new Error(res.error.message));
          return;
        }
        setSecret(res.data.key);
        void refresh();
        resolve();
      });
    });

  const revoke = async (id: string) => {
    setRevokeError(null);
    const res = await revokeApiKey({ id });
    if (!res.ok) setRevokeError(res.error);
    else void refresh();
  };

  return (
    <div className="space-y-6">
      {isAdmin && <NewApiKeyForm regions={regions} pending={creating} onCreate={create} />}
      {secret && <NewKeySecret secret={secret} />}
      {error && <ErrorAlert requestId={error.request_id}>{error.message}</ErrorAlert>}
      <div className={card}>
        <ApiKeyTable
          keys={keys.data?.pages.flatMap((p) => p.data) ?? []}
          empty={keys.isLoading ? 'Loading…' : keys.data ? 'No API keys yet.' : null}
          canRevoke={isAdmin}
          onRevoke={(k) => void revoke(k.id)}
        />
      </div>
      <LoadMore query={keys} />
    </div>
  );
}
