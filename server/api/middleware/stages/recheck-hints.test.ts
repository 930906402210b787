import { describe, expect, it } from 'vitest';
import { refusal, stateFor } from '../stage.fixture';
import { recheckHints } from './recheck-hints';

const hinted = (region: string, source: 'header' | 'key' | 'fan-out' = 'key', meta?: { region: 'gateway' }) => {
  const s = stateFor({ hints: { regions: ['sfo1'], narrowed: true }, meta: { access: 'public', ...meta } });
  s.resolveStartedAt = performance.now();
  s.resolved = source === 'fan-out' ? { region, source, fanOut: ['ams1', 'sfo1'] } : { region, source };
  return s;
};

describe('stage recheckHints', () => {
  it("refuses a verified region the hints did not leave, and marks the record's refusal as the hints'", async () => {
    const s = hinted('ams1');
    expect(() => recheckHints.run(s)).toThrow(
      expect.objectContaining({
        code: 'invalid_region',
        message: "this request's region hints allow only sfo1, not ams1",
        extra: { region: 'ams1' },
      }),
    );
    expect(s.hintRefused).toBe(true);
  });

  it('lets through a region within the hints, a fan-out, and a gateway route', async () => {
    for (const s of [hinted('sfo1'), hinted('global', 'fan-out'), hinted('ams1', 'key', { region: 'gateway' })]) {
      expect(await refusal(() => recheckHints.run(s))).toBeUndefined();
      expect(s.hintRefused).toBe(false);
    }
  });

  it('cannot run before resolve', () => {
    expect(() => recheckHints.run(stateFor())).toThrow('the resolve stage has not run yet');
  });
});
