// /atlas: the platform's regions, for operators.
import type { Metadata } from 'next';
import { DataTable } from '~/components/ui/data-table';
import { PageHeader } from '~/components/ui/page-header';
import { StatusDot } from '~/components/ui/status-dot';
import { card } from '~/components/ui/styles';
import { serverApi } from '~/server/api/server-caller';

export const metadata: Metadata = { title: 'Atlas' };
export const dynamic = 'force-dynamic';

export default async function AtlasHome() {
  const api = await serverApi();
  const { data: regions } = await api.atlas.regions.list({});
  return (
    <div className="space-y-6">
      <PageHeader eyebrow="Atlas" tone="atlas" title="Platform operations" />
      <div className={card}>
        <DataTable
          caption="Regions"
          rows={regions}
          rowKey={(r) => r.code}
          columns={[
            {
              header: 'Region',
              className: 'font-mono font-semibold',
              cell: (r) => `${r.code}${r.isPrimary ? ' ★' : ''}`,
            },
            { header: 'Location', cell: (r) => `${r.label}, ${r.country}` },
            { header: 'Provider', cell: (r) => r.provider },
            { header: 'Status', cell: (r) => <StatusDot status={r.status} /> },
            { header: 'Gateway', className: 'font-mono text-xs', cell: (r) => r.baseUrl },
          ]}
        />
      </div>
    </div>
  );
}
