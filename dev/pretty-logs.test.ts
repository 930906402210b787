import { describe, expect, it } from 'vitest';
import { planGateways } from './deployment-processes';
import { isRoutine, prettyLines } from './pretty-logs';

describe('pretty logs for npm start in a terminal', () => {
  const format = prettyLines({ verbose: false, colorize: false });

  it('prints a JSON log line as one readable line', () => {
    const line = JSON.stringify({
      level: 40,
      time: '2026-11-30T21:18:22.633Z',
      service: 'meridian',
      process: 'gateway-sfo1-1',
      msg: 'directory: registration failed; serving on, will retry',
      retry_in_ms: 4000,
    });
    const out = format(line)!;
    expect(out).not.toContain('\n');
    expect(out).toContain('WARN');
    expect(out).toContain('directory: registration failed');
    expect(out).toContain('retry_in_ms');
    expect(out).not.toContain('"service"');
  });

  it('leaves routine lines out unless verbose, never warnings or failed requests', () => {
    const ok = { level: 30, msg: 'request', status: 200 };
    const step = { level: 30, msg: 'step_started', event: 'step_started' };
    expect(isRoutine(ok)).toBe(true);
    expect(isRoutine(step)).toBe(true);
    expect(isRoutine({ level: 30, msg: 'request', status: 503 })).toBe(false);
    expect(isRoutine({ level: 40, msg: 'step_retrying', event: 'step_started' })).toBe(false);
    expect(isRoutine({ level: 30, msg: 'run_failed', event: 'run_failed' })).toBe(false);
    expect(format(JSON.stringify(ok))).toBeUndefined();
    expect(prettyLines({ verbose: true, colorize: false })(JSON.stringify(ok))).toContain('request');
  });

  it('passes anything else through unchanged', () => {
    expect(format('[meridian] serving on http://127.0.0.1:3000')).toBe('[meridian] serving on http://127.0.0.1:3000');
    expect(format('{not json')).toBe('{not json');
  });
});

describe('the multi-process plan', () => {
  it('puts the global gateway on the base port and each region’s gateways after it', () => {
    const plan = planGateways(['sfo1', 'lax1'], 2, 3000);
    expect(plan.map((g) => [g.name, g.port, g.url])).toEqual([
      ['global-1', 3000, 'http://localhost:3000'],
      ['sfo1-1', 3001, 'http://sfo1.localhost:3001'],
      ['sfo1-2', 3002, 'http://sfo1.localhost:3002'],
      ['lax1-1', 3003, 'http://lax1.localhost:3003'],
      ['lax1-2', 3004, 'http://lax1.localhost:3004'],
    ]);
  });
});
