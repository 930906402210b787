// The request middleware alone, in process, around a trivial procedure with no database
// (docs/performance.md).
import { createContext } from '../server/api/context';
import { resetDecisionLog } from '../server/routing/decision-log';
import { requestMiddleware } from '../server/api/middleware/request';
import { processSingleton } from '../server/process-singletons';
import { benchRegistry, summarize, type Benchmark } from './lib';

const N = 200_000;

const bench: Benchmark = {
  name: 'middleware',
  async run() {
    // The registry as a gateway holds it once loaded (no database involved).
    const registry = benchRegistry();
    processSingleton('region-registry', () => ({ current: registry }));
    const headers = new Headers({ host: 'sfo1.localhost:3000', 'x-region': 'sfo1' });
    const url = new URL('http://sfo1.localhost:3000/v1/ping');
    const once = () => {
      const ctx = createContext({ transport: 'rest', method: 'GET', url, headers, setHeader: () => {} });
      return requestMiddleware({
        ctx,
        meta: { access: 'public' },
        path: 'system.ping',
        type: 'query',
        getRawInput: async () => undefined,
        next: async () => ({ ok: true }),
      });
    };
    for (let i = 0; i < 20_000; i++) await once();
    await resetDecisionLog();
    const samples: number[] = [];
    const t0 = performance.now();
    let paused = 0;
    for (let i = 0; i < N; i++) {
      // With no database the decision records pile up in the buffer: emptied here, untimed, so what
      // is measured is a record's making and buffering, not the overflow path of a primary down.
      if (i % 5_000 === 0) {
        const p = performance.now();
        await resetDecisionLog();
        paused += performance.now() - p;
      }
      const t = performance.now();
      await once();
      samples.push((performance.now() - t) * 1000);
    }
    const total = (performance.now() - t0 - paused) / 1000;
    return [
      {
        name: `requestMiddleware around a trivial procedure, ${N} calls (µs)`,
        figures: { ...summarize(samples, 'us'), calls_per_s: Math.round(N / total) },
        note: 'LOG_LEVEL=warn in benchmarks: the per-request log line is measured by the HTTP benchmarks with logging on',
      },
    ];
  },
};

export default bench;
