'use client';
// Asks the server how a read or a write from this page would resolve, via server actions.
import { useState, useTransition } from 'react';
import { explainRead, explainWrite } from '~/server/api/actions/routing';
import type { ActionResult } from '~/server/api/adapters/action';
import { btnPrimary, btnSecondary, panel } from '../ui/styles';
import { TextField } from '../ui/text-field';
import { AnswerRow } from './answer-row';

type Explained = Awaited<ReturnType<typeof explainRead>>;

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
        className={`${panel} space-y-4`}
        onSubmit={(e) => {
          e.preventDefault();
          run('write');
        }}
      >
        <TextField
          label="Body region (optional)"
          name="region"
          value={region}
          onChange={(e) => setRegion(e.target.value)}
          placeholder="e.g. lax1"
          hint="Counts for writes only, after the host, X-Region and ?region=."
          inputClassName="font-mono"
        />
        <div className="flex gap-3">
          <button type="button" onClick={() => run('read')} disabled={pending} className={btnSecondary}>
            Resolve a read
          </button>
          <button type="submit" disabled={pending} className={btnPrimary}>
            Resolve a write
          </button>
        </div>
      </form>
      <section aria-live="polite" aria-busy={pending} className={panel}>
        <h2 className="mb-2 text-sm font-medium">Answer</h2>
        {pending && <p className="text-sm text-slate-500">Resolving…</p>}
        {!pending && !result && <p className="text-sm text-slate-500">Nothing asked yet.</p>}
        {!pending && result && (
          <dl className="text-sm">
            <AnswerRow label="Outcome" value={result.ok ? 'ok' : result.error.code} testId="outcome" />
            <AnswerRow label="Region" value={result.meta.region} testId="region" />
            <AnswerRow label="Source" value={result.meta.regionSource} testId="source" />
            {result.ok &&
              'fan_out' in (result.data as object) &&
              (result.data as { fan_out: string[] | null }).fan_out && (
                <AnswerRow
                  label="Fan-out"
                  value={(result.data as { fan_out: string[] }).fan_out.join(', ')}
                  testId="fan-out"
                />
              )}
            {!result.ok && <AnswerRow label="Message" value={result.error.message} testId="message" />}
            <AnswerRow label="Request ID" value={result.meta.requestId} testId="request-id" />
          </dl>
        )}
      </section>
    </div>
  );
}
