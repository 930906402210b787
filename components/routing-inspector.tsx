'use client';
// Asks the server how a read or a write from this page would resolve, via server actions.
import { useState, useTransition } from 'react';
import { explainRead, explainWrite } from '~/app/routing/actions';
import type { ActionResult } from '~/server/api/adapters/action';

type Explained = Awaited<ReturnType<typeof explainRead>>;

function Row({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4 border-b border-slate-100 py-1.5 last:border-0 dark:border-slate-800">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd data-testid={testId} className="font-mono text-sm">
        {value}
      </dd>
    </div>
  );
}

export function RoutingInspector() {
  const [region, setRegion] = useState('');
  const [result, setResult] = useState<Explained | ActionResult<unknown> | null>(null);
  const [pending, startTransition] = useTransition();

  const run = (kind: 'read' | 'write') =>
    startTransition(async () => {
      const input = region === '' ? {} : { region };
      setResult(kind === 'read' ? await explainRead(input) : await explainWrite(input));
    });

  return (
    <div className="grid gap-6 md:grid-cols-2">
      <form
        className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
        onSubmit={(e) => {
          e.preventDefault();
          run('write');
        }}
      >
        <label className="block space-y-1.5">
          <span className="text-sm font-medium">Body region (optional)</span>
          <input
            name="region"
            value={region}
            onChange={(e) => setRegion(e.target.value)}
            placeholder="e.g. lax1"
            className="w-full rounded-md border border-slate-300 bg-transparent px-3 py-2 font-mono text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700"
          />
          <span className="block text-xs text-slate-500">
            Counts for writes only, after the host, X-Region and ?region=.
          </span>
        </label>
        <div className="flex gap-3">
          <button
            type="button"
            onClick={() => run('read')}
            disabled={pending}
            className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100 disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Resolve a read
          </button>
          <button
            type="submit"
            disabled={pending}
            className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50"
          >
            Resolve a write
          </button>
        </div>
      </form>
      <section
        aria-live="polite"
        aria-busy={pending}
        className="rounded-lg border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 className="mb-2 text-sm font-medium">Answer</h2>
        {pending && <p className="text-sm text-slate-500">Resolving…</p>}
        {!pending && !result && <p className="text-sm text-slate-500">Nothing asked yet.</p>}
        {!pending && result && (
          <dl className="text-sm">
            <Row label="Outcome" value={result.ok ? 'ok' : result.error.code} testId="outcome" />
            <Row label="Region" value={result.meta.region} testId="region" />
            <Row label="Source" value={result.meta.regionSource} testId="source" />
            {result.ok &&
              'fan_out' in (result.data as object) &&
              (result.data as { fan_out: string[] | null }).fan_out && (
                <Row
                  label="Fan-out"
                  value={(result.data as { fan_out: string[] }).fan_out.join(', ')}
                  testId="fan-out"
                />
              )}
            {!result.ok && <Row label="Message" value={result.error.message} testId="message" />}
            <Row label="Request ID" value={result.meta.requestId} testId="request-id" />
          </dl>
        )}
      </section>
    </div>
  );
}
