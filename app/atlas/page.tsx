// /atlas: every region's health, lag and traffic, live, for operators.
import type { Metadata } from 'next';
import { LagHistory } from '~/components/atlas/lag-history';
import { RegionDashboard } from '~/components/atlas/region-dashboard';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Atlas' };
export const dynamic = 'force-dynamic';

export default function AtlasHome() {
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow="Atlas"
        tone="atlas"
        title="Region health"
        description="Each region’s replica, the primary and this gateway’s traffic over the last 5 minutes, live."
      />
      <RegionDashboard />
      <LagHistory />
    </div>
  );
}
