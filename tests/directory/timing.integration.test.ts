// Enumeration by timing: look-ups of known and unknown workspaces, interleaved in random order
// through the real route handler (middleware, rate limiter on PostgreSQL, the resolve query),
// must not be told apart. N = 2000 samples per group (after 100 warm-up look-ups); the medians
// must differ by less than 5%, and a two-sided Mann–Whitney U test must not reject "same
// distribution" at p < 0.001. Both checks can fail: a code path that skips the query or the
// HMAC for unknown slugs shows up at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useDemoDatabase } from '../../dev/testing/app';
import { withReservedSlug } from '../../server/cell/workspaces';
import { lookupRequest, registeredCell, routes } from './harness';

const N = 2000;
const WARM_UP = 100;
let directory: Awaited<ReturnType<typeof registeredCell>>;

beforeAll(async () => {
  await useDemoDatabase('directory_timing');
  directory = await registeredCell();
  for (const [region, slug] of [
    ['lax1', 'initech'],
    ['ams1', 'hooli'],
    ['lax1', 'stark-industries'],
  ] as const) {
    await withReservedSlug(region, slug, async () => slug);
  }
});

afterAll(async () => {
  await directory?.close();
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

/** Two-sided Mann–Whitney U (normal approximation, ties averaged): the p-value. */
function mannWhitneyP(a: number[], b: number[]): number {
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++;
    for (let k = i; k <= j; k++) ranks[k] = (i + j) / 2 + 1;
    i = j + 1;
  }
  const rankA = all.reduce((s, x, i) => (x.g === 0 ? s + ranks[i]! : s), 0);
  const n1 = a.length;
  const n2 = b.length;
  const u = rankA - (n1 * (n1 + 1)) / 2;
  const z = (u - (n1 * n2) / 2) / Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12);
  // Φ via erf (Abramowitz–Stegun 7.1.26).
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return 1 - erf;
}

it(`known and unknown look-ups take the same time (N = ${N} each, interleaved)`, { timeout: 300_000 }, async () => {
  const { resolve } = await routes();
  const known = ['acme', 'globex', 'initech', 'hooli', 'stark-industries'];
  // Unknown slugs of the same lengths, reused as the known ones are (like an attacker's list).
  const unknownSlugs = ['zeta', 'bluthx', 'tyrell1', 'vance', 'soylent-company1'];
  let peer = 0;
  const once = async (slug: string) => {
    peer++;
    // A fresh client address per look-up (the limit is per address; each still costs a point).
    const req = lookupRequest({ slug }, `10.${(peer >> 16) & 255}.${(peer >> 8) & 255}.${peer & 255}`);
    const t0 = performance.now();
    const res = await resolve(req);
    await res.text();
    const ms = performance.now() - t0;
    expect(res.status).toBe(200);
    return ms;
  };
  for (let i = 0; i < WARM_UP; i++) await once(i % 2 ? known[i % known.length]! : `warm-up-${i}`);

  const k: number[] = [];
  const u: number[] = [];
  for (let i = 0; i < N; i++) {
    const unknown = unknownSlugs[i % unknownSlugs.length]!;
    const kn = known[i % known.length]!;
    // Random order within each pair, so drift and caching hit both groups alike.
    if (Math.random() < 0.5) {
      k.push(await once(kn));
      u.push(await once(unknown));
    } else {
      u.push(await once(unknown));
      k.push(await once(kn));
    }
  }
  const mk = median(k);
  const mu = median(u);
  const diff = Math.abs(mk - mu) / Math.min(mk, mu);
  const p = mannWhitneyP(k, u);
  console.log(
    `directory timing: N=${N} per group; median known ${mk.toFixed(3)} ms, unknown ${mu.toFixed(3)} ms ` +
      `(diff ${(diff * 100).toFixed(2)}%); p95 known ${p95(k).toFixed(3)} ms, unknown ${p95(u).toFixed(3)} ms; ` +
      `Mann–Whitney p=${p.toFixed(4)}`,
  );
  expect(diff).toBeLessThan(0.05);
  expect(p).toBeGreaterThan(0.001);
});
