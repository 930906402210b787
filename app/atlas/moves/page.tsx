// /atlas/moves: workspace moves (live), and starting one.
import type { Metadata } from 'next';
import { MovesList } from '~/components/atlas/moves/moves-list';
import { StartMoveForm } from '~/components/atlas/moves/start-move-form';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Moves · Atlas' };
export const dynamic = 'force-dynamic';

const SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;

export default async function MovesPage({ searchParams }: { searchParams: Promise<{ org?: string; slug?: string }> }) {
  const { org, slug } = await searchParams;
  const only = typeof org === 'string' && SLUG.test(org) ? org : undefined;
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow="Atlas"
        tone="atlas"
        title="Workspace moves"
        description="Take a workspace to another home region: it is read-only while its rows are exported and verified at the target, then the directory sends its people there."
      />
      <StartMoveForm slug={typeof slug === 'string' && SLUG.test(slug) ? slug : (only ?? '')} />
      <MovesList org={only} />
    </div>
  );
}
