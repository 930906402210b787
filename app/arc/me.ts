// The signed-in Arc user, looked up once per request and shared by the layout and the page
// (Next renders them concurrently); anyone else is sent to sign in. A session at a region its
// workspace has moved away from (421 wrong_region, server/api/middleware/stages/session-at-home.ts) is
// over here: the person is sent to the sign-in of the workspace's new home.
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { isAppError } from '~/server/errors';
import { serverApi } from '~/server/api/server-caller';

export const arcMe = cache(async () => {
  let moved: { base_url: string; workspace: string } | undefined;
  const me = await (await serverApi()).me.get().catch((e: unknown) => {
    const cause = (e as { cause?: unknown }).cause;
    if (isAppError(cause) && cause.code === 'wrong_region' && typeof cause.extra.base_url === 'string') {
      moved = { base_url: cause.extra.base_url, workspace: String(cause.extra.workspace ?? '') };
    }
    return null;
  });
  if (moved) redirect(`${moved.base_url}/sign-in?workspace=${encodeURIComponent(moved.workspace)}`);
  if (!me || me.kind !== 'session') redirect('/sign-in?callbackUrl=/arc');
  return me;
});
