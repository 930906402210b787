// The signed-in Arc user, looked up once per request and shared by the layout and the page
// (Next renders them concurrently); anyone else is sent to sign in.
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { serverApi } from '~/server/api/server-caller';

export const arcMe = cache(async () => {
  const me = await (await serverApi()).me.get().catch(() => null);
  if (!me || me.kind !== 'session') redirect('/sign-in?callbackUrl=/arc');
  return me;
});
