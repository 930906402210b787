// /atlas/servers: every region's physical servers, for operators.
import type { Metadata } from 'next';
import { ServerList } from '~/components/atlas/servers/server-list';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Servers · Atlas' };
export const dynamic = 'force-dynamic';

export default function ServersPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow="Atlas"
        tone="atlas"
        title="Servers"
        description="Every physical server, where it sits, what it is and which cluster holds it. Open a free one to provision it."
      />
      <ServerList />
    </div>
  );
}
