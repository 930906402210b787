// /atlas/moves/[id]: one move, rendered on the client so it can follow its steps live.
import type { Metadata } from 'next';
import { MoveDetail } from '~/components/atlas/moves/move-detail';

export const metadata: Metadata = { title: 'Move · Atlas' };
export const dynamic = 'force-dynamic';

export default async function MovePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <MoveDetail id={id} />;
}
