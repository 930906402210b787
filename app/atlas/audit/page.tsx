// /atlas/audit: the audit log, for operators.
import type { Metadata } from 'next';
import { AuditLog } from '~/components/audit/audit-log';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Audit log · Atlas' };
export const dynamic = 'force-dynamic';

export default function AuditPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow="Atlas"
        tone="atlas"
        title="Audit log"
        description="Who did what, when, and from which request: region changes, API keys, sign-ins."
      />
      <AuditLog scope="platform" />
    </div>
  );
}
