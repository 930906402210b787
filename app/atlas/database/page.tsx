// /atlas/database: the database cluster as the HA manager sees it, live, and a planned switchover
// (docs/atlas.md#database, docs/flows/failover.md).
import type { Metadata } from 'next';
import { DatabaseCluster } from '~/components/atlas/database/database-cluster';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Database · Atlas' };
export const dynamic = 'force-dynamic';

export default function DatabasePage() {
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow="Atlas"
        tone="atlas"
        title="Database"
        description="The database cluster as the HA manager sees it (its members, roles, timelines and lag, its promotions) and this gateway’s primary, live; a planned switchover to the synchronous standby."
      />
      <DatabaseCluster />
    </div>
  );
}
