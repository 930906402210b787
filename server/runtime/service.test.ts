import { describe, expect, it } from 'vitest';
import { Runtime, service } from './service';

function recorder() {
  const log: string[] = [];
  const svc = (name: string, opts: { phase?: 'boot' | 'serving'; stop?: () => Promise<void> } = {}) =>
    service({
      name,
      phase: opts.phase,
      start: () => void log.push(`start ${name}`),
      stop: opts.stop ?? (() => void log.push(`stop ${name}`)),
    });
  return { log, svc };
}

describe('Runtime', () => {
  it('starts each phase in order and stops everything in reverse', async () => {
    const { log, svc } = recorder();
    const rt = new Runtime('test', [
      svc('db'),
      svc('positions'),
      svc('registration', { phase: 'serving' }),
      svc('log'),
    ]);
    await rt.start();
    expect(log).toEqual(['start db', 'start positions', 'start log']);
    await rt.start('serving');
    expect(log.at(-1)).toBe('start registration');
    log.length = 0;
    await rt.stop();
    expect(log).toEqual(['stop log', 'stop registration', 'stop positions', 'stop db']);
  });

  it('passes a service whose stop fails or hangs, and stops the rest', async () => {
    const { log, svc } = recorder();
    const rt = new Runtime('test', [
      svc('db'),
      svc('hangs', { stop: () => new Promise<void>(() => {}) }),
      svc('fails', { stop: () => Promise.reject(new Error('boom')) }),
    ]);
    const started = Date.now();
    await rt.stop(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(log).toEqual(['stop db']);
  });

  it('a service without a reset resets by stopping; one without verbs does nothing', async () => {
    const { log, svc } = recorder();
    const rt = new Runtime('test', [svc('db'), service({ name: 'empty' })]);
    await rt.reset();
    expect(log).toEqual(['stop db']);
  });
});
