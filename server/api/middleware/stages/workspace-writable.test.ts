import { describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../../../auth/identity';
import { ORG, apiKey, refusal, session, stateFor } from '../stage.fixture';
import { MOVING_RETRY_AFTER_SECONDS, workspaceWritable } from './workspace-writable';

const moving = { ...ORG, status: 'moving' };

describe('stage workspaceWritable', () => {
  it("refuses a moving workspace's mutations, from sessions and keys alike: 503 with Retry-After", () => {
    for (const identity of [session({ org: moving }), apiKey({ org: moving, scopes: ['write'] })]) {
      expect(() => workspaceWritable.run(stateFor({ type: 'mutation', identity }))).toThrow(
        expect.objectContaining({ code: 'workspace_moving', retryAfter: MOVING_RETRY_AFTER_SECONDS }),
      );
    }
  });

  it('lets its reads go on, and everyone else write', async () => {
    expect(await refusal(() => workspaceWritable.run(stateFor({ identity: session({ org: moving }) })))).toBe(
      undefined,
    );
    expect(await refusal(() => workspaceWritable.run(stateFor({ type: 'mutation', identity: session() })))).toBe(
      undefined,
    );
    expect(await refusal(() => workspaceWritable.run(stateFor({ type: 'mutation', identity: ANONYMOUS })))).toBe(
      undefined,
    );
  });

  it("refuses an offboarding organization's mutations with 409 organization_offboarding, except its cancel", async () => {
    const leaving = { ...ORG, status: 'offboarding' };
    for (const identity of [session({ org: leaving }), apiKey({ org: leaving, scopes: ['write'] })]) {
      expect(() => workspaceWritable.run(stateFor({ type: 'mutation', identity }))).toThrow(
        expect.objectContaining({ code: 'organization_offboarding', status: 409 }),
      );
      expect(await refusal(() => workspaceWritable.run(stateFor({ identity })))).toBe(undefined);
    }
    const cancel = stateFor({ type: 'mutation', identity: session({ org: leaving }) });
    expect(await refusal(() => workspaceWritable.run({ ...cancel, meta: { whileOffboarding: true } }))).toBe(undefined);
  });
});
