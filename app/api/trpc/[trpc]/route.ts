import { handleTrpc } from '~/server/api/adapters/trpc-http';

export const dynamic = 'force-dynamic';

export { handleTrpc as GET, handleTrpc as POST };
