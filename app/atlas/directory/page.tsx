// /atlas/directory: the global directory's workspaces, for operators.
import type { Metadata } from 'next';
import { DirectoryWorkspaces } from '~/components/atlas/directory-workspaces';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Directory · Atlas' };
export const dynamic = 'force-dynamic';

export default function DirectoryPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow="Atlas"
        tone="atlas"
        title="Directory"
        description="Which region each workspace lives in, as the cells have registered it. Written only by the cells' signed calls."
      />
      <DirectoryWorkspaces />
    </div>
  );
}
