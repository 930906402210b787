// /atlas/servers/[id]: one server, rendered on the client so it can follow its provisioning live.
import type { Metadata } from 'next';
import { ServerDetail } from '~/components/atlas/servers/server-detail';

export const metadata: Metadata = { title: 'Server · Atlas' };
export const dynamic = 'force-dynamic';

export default async function ServerPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ServerDetail id={id} />;
}
