'use client';
// Lists, creates and revokes the organization's API keys (tRPC). The region picker appears only
// for organizations with several regions; a new key's secret is shown once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from './trpc-provider';
import { RegionOptions } from './ui/region-options';

export function ApiKeysManager({ regions, isAdmin }: { regions: string[]; isAdmin: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions({}));
  const [name, setName] = useState('');
  const [region, setRegion] = useState(regions[0] ?? '');
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (k) => {
        setSecret(k.key);
        setName('');
        void refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions({ onSuccess: () => void refresh() }));
  const error = (create.error ?? revoke.error) as {
    message: string;
    data?: { error?: { request_id?: string } };
  } | null;

  return (
    <div className="space-y-6">
      {isAdmin && (
        <form
          className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
          onSubmit={(e) => {
            e.preventDefault();
            setSecret(null);
            create.mutate(regions.length > 1 ? { name, region } : { name });
          }}
        >
          <label className="space-y-1">
            <span className="block text-sm font-medium">Name</span>
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={80}
              placeholder="ci deploys"
              className="rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700"
            />
          </label>
          {regions.length > 1 && (
            <label className="space-y-1">
              <span className="block text-sm font-medium">Region</span>
              <select
                value={region}
                onChange={(e) => setRegion(e.target.value)}
                className="rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700"
              >
                <RegionOptions regions={regions} />
              </select>
            </label>
          )}
          <button
            type="submit"
            disabled={create.isPending}
            className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60"
          >
            {create.isPending ? 'Creating…' : 'Create key'}
          </button>
        </form>
      )}
      {secret && (
        <div
          role="status"
          className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-800 dark:bg-emerald-950"
        >
          <p className="text-sm font-medium">Copy this key now: it will not be shown again.</p>
          <div className="flex items-center gap-2">
            <code
              data-testid="new-key"
              className="break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-slate-900"
            >
              {secret}
            </code>
            <button
              type="button"
              onClick={() => void navigator.clipboard?.writeText(secret)}
              className="rounded-md border border-slate-300 px-2 py-1 text-xs dark:border-slate-700"
            >
              Copy
            </button>
          </div>
        </div>
      )}
      {error && (
        <p
          role="alert"
          className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700 dark:bg-rose-950 dark:text-rose-300"
        >
          {error.message}
          {error.data?.error?.request_id && (
            <span className="ml-2 font-mono text-xs">({error.data.error.request_id})</span>
          )}
        </p>
      )}
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">API keys</caption>
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-800">
            <tr>
              <th scope="col" className="px-4 py-2">
                Name
              </th>
              <th scope="col" className="px-4 py-2">
                Region
              </th>
              <th scope="col" className="px-4 py-2">
                Prefix
              </th>
              <th scope="col" className="px-4 py-2">
                Created
              </th>
              <th scope="col" className="px-4 py-2">
                Status
              </th>
              <th scope="col" className="px-4 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.isLoading && (
              <tr>
                <td colSpan={6} className="px-4 py-6 text-center text-slate-500">
                  Loading…
                </td>
              </tr>
            )}
            {keys.data?.data.length === 0 && (
              <tr>
                <td colSpan={6} className="px-4 py-6 text-center text-slate-500">
                  No API keys yet.
                </td>
              </tr>
            )}
            {keys.data?.data.map((k) => (
              <tr key={k.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <td className="px-4 py-2">{k.name}</td>
                <td className="px-4 py-2 font-mono">{k.region}</td>
                <td className="px-4 py-2 font-mono text-xs">
                  mk_{k.region}_{k.prefix}_…
                </td>
                <td className="px-4 py-2 text-xs">{new Date(k.created_at).toLocaleString()}</td>
                <td className="px-4 py-2">
                  {k.revoked_at ? (
                    <span className="text-rose-600">revoked</span>
                  ) : (
                    <span className="text-emerald-600">active</span>
                  )}
                </td>
                <td className="px-4 py-2 text-right">
                  {isAdmin && !k.revoked_at && (
                    <button
                      type="button"
                      onClick={() => revoke.mutate({ id: k.id })}
                      aria-label={`Revoke ${k.name}`}
                      className="rounded-md border border-rose-300 px-2 py-1 text-xs text-rose-700 hover:bg-rose-50 dark:border-rose-800 dark:text-rose-300 dark:hover:bg-rose-950"
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
