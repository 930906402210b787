// The signed-in Arc user, looked up once per request for the layout and the page; anyone else is
// sent to sign in, and a session whose workspace moved away to its new home's sign-in.
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
