'use server';
// Server actions of the workspace lifecycle's public pages (set your password, sign up): each runs
// its procedure through the request middleware.
import { serverAction } from '../adapters/action';

export const setFirstPassword = serverAction((api, input: { token: string; password: string }) =>
  api.onboarding.setPassword(input),
);

export const signUp = serverAction(
  (
    api,
    input: {
      email: string;
      password: string;
      name?: string;
      organization_slug: string;
      organization_name: string;
    },
  ) => api.onboarding.signUp(input),
);
