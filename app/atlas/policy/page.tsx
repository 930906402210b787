// /atlas/policy: the routing policy editor (current version, draft form, diff, publish, history
// with rollback, what every gateway applied) (docs/flows/routing-policy.md).
import type { Metadata } from 'next';
import { PolicyEditorPage } from '~/components/atlas/policy/policy-editor-page';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Routing policy · Atlas' };
export const dynamic = 'force-dynamic';

const ORG = /^(default|[a-z0-9][a-z0-9-]{0,62}|org_[0-9A-Za-z]{1,40})$/;

export default async function PolicyPage({ searchParams }: { searchParams: Promise<{ org?: string }> }) {
  const { org } = await searchParams;
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow="Atlas"
        tone="atlas"
        title="Routing policy"
        description="Where each organization’s traffic may enter and which database may serve it. Every publish is a new immutable version, applied by every gateway within a second."
      />
      <PolicyEditorPage org={typeof org === 'string' && ORG.test(org) ? org : 'default'} />
    </div>
  );
}
