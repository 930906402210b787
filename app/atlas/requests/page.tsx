// /atlas/requests?id=req_…, "Explain a request": a plain GET form rendered on the server, so links
// and no-JavaScript work; a record never changes once written, so nothing polls.
import type { Metadata } from 'next';
import { RequestExplanation, type ExplanationData } from '~/components/atlas/request-explanation';
import { EmptyState } from '~/components/ui/empty-state';
import { ErrorAlert } from '~/components/ui/error-alert';
import { PageHeader } from '~/components/ui/page-header';
import { btnPrimary, panel } from '~/components/ui/styles';
import { TextField } from '~/components/ui/text-field';
import { serverApi } from '~/server/api/server-caller';

export const metadata: Metadata = { title: 'Explain a request · Atlas' };
export const dynamic = 'force-dynamic';

type Outcome =
  | { kind: 'none' }
  | { kind: 'found'; explanation: ExplanationData }
  | { kind: 'invalid'; message: string }
  | { kind: 'not_found'; message: string }
  | { kind: 'error'; message: string; requestId?: string };

async function explain(id: string): Promise<Outcome> {
  if (!id) return { kind: 'none' };
  try {
    return { kind: 'found', explanation: await (await serverApi()).atlas.requests.get({ request_id: id }) };
  } catch (e) {
    const body = (e as { cause?: { code?: string; message?: string } }).cause;
    const message = body?.message ?? (e as Error).message;
    if (body?.code === 'invalid_request')
      return {
        kind: 'invalid',
        message: 'That is not a request ID: they look like req_sfo1-1770564159296-7d4b9e1f3a5b.',
      };
    if (body?.code === 'not_found') return { kind: 'not_found', message };
    return { kind: 'error', message };
  }
}

export default async function ExplainRequestPage({
  searchParams,
}: {
  searchParams: Promise<{ id?: string | string[] }>;
}) {
  const raw = (await searchParams).id;
  const id = (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, 200) ?? '';
  const outcome = await explain(id);
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow="Atlas"
        tone="atlas"
        title="Explain a request"
        description="Paste a request ID to see why that request went where it went: how it came in, who sent it, which region and database the policy allowed, what was ruled out and why, and how it ended. Records are kept 24 hours."
      />
      <form
        method="GET"
        action="/atlas/requests"
        role="search"
        aria-label="Explain a request"
        className={`${panel} flex flex-wrap items-end gap-3`}
      >
        <TextField
          label="Request ID"
          name="id"
          defaultValue={id}
          required
          maxLength={200}
          autoComplete="off"
          spellCheck={false}
          placeholder="req_sfo1-1770564159296-7d4b9e1f3a5b"
          hint="From a response's X-Request-Id header, or the request_id of an error."
          error={outcome.kind === 'invalid' ? outcome.message : null}
          className="min-w-0 flex-1 basis-72"
          inputClassName="font-mono"
        />
        <button type="submit" className={btnPrimary}>
          Explain
        </button>
      </form>
      {outcome.kind === 'none' && (
        <div className={panel}>
          <EmptyState title="Which request?">
            Every response carries its ID in <code className="font-mono">X-Request-Id</code>, and every error body in{' '}
            <code className="font-mono">error.request_id</code>. Paste one above.
          </EmptyState>
        </div>
      )}
      {outcome.kind === 'not_found' && (
        <div className={panel} data-testid="explain-not-found">
          <EmptyState title="No record of this request">
            <p>
              Nothing is known about <code className="break-all font-mono">{id}</code>. Decision records are kept 24
              hours and appear about a second after the response; an older or mistyped ID finds nothing.
            </p>
          </EmptyState>
        </div>
      )}
      {outcome.kind === 'error' && <ErrorAlert>The request could not be explained: {outcome.message}</ErrorAlert>}
      {outcome.kind === 'found' && <RequestExplanation e={outcome.explanation} />}
    </div>
  );
}
