// The Prometheus alerting rules shipped in ops/prometheus/ name only metrics that GET /metrics
// really exports, with labels those metrics really have: the names come from the app's own
// prom-client registry (the one /metrics serializes), not from a list kept by hand.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { metrics } from './metrics';

const RULES = path.resolve(import.meta.dirname, '../../ops/prometheus/meridian-alerts.yml');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring']);
const KEYWORDS_WITH_LIST = /\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g;

/** Series selectors of a PromQL expression: metric name and the label names its matchers use. */
export function selectors(expr: string): { metric: string; labels: string[] }[] {
  const src = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // strings (label values) say nothing
    .replace(KEYWORDS_WITH_LIST, ' ') // grouping labels are not metrics (`max by (x) (` is a call)
    .replace(/\[[^\]]*\]/g, ' '); // range durations
  const out: { metric: string; labels: string[] }[] = [];
  const re = /([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?\s*(\()?/g;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const [, name, matchers, call] = m;
    if (call || KEYWORDS.has(name!) || /^\d/.test(name!)) continue; // a function, or a keyword
    out.push({
      metric: name!,
      labels: [...(matchers ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)/g)].map((l) => l[1]!),
    });
  }
  return out;
}

/** What /metrics exports: every series name (histograms as _bucket/_sum/_count) with its labels. */
async function exported(): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const m of await metrics.registry.getMetricsAsJSON()) {
    const defined = metrics.registry.getSingleMetric(m.name) as unknown as { labelNames?: string[] } | undefined;
    const labels = new Set(defined?.labelNames ?? []);
    const type = String(m.type);
    const names =
      type === 'histogram'
        ? [`${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`]
        : type === 'summary'
          ? [m.name, `${m.name}_sum`, `${m.name}_count`]
          : [m.name];
    for (const n of names) out.set(n, n.endsWith('_bucket') ? new Set([...labels, 'le']) : labels);
  }
  return out;
}

const file = parse(fs.readFileSync(RULES, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
const rules = file.groups.flatMap((g) => g.rules.map((r) => ({ group: g.name, ...r })));

describe('ops/prometheus/meridian-alerts.yml', () => {
  it('is a rules file with the alerts operators page on', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual(
      expect.arrayContaining([
        'MeridianHighErrorRate',
        'MeridianPrimaryDown',
        'MeridianReplicaDown',
        'MeridianReplicaLagging',
      ]),
    );
    for (const r of rules) {
      expect(r.expr.trim(), r.alert).not.toBe('');
      if (r.for) expect(r.for, r.alert).toMatch(/^\d+[smh]$/);
      expect(r.labels?.severity, r.alert).toMatch(/^(warning|critical)$/);
      expect(r.annotations?.summary, r.alert).toBeTruthy();
    }
  });

  it('the selector parser finds metrics and matcher labels, not functions, keywords or grouping labels', () => {
    expect(
      selectors(
        'sum by (region) (rate(foo_total{status=~"5..", x="a{b}"}[5m])) > on (instance) group_left () bar and baz_count',
      ),
    ).toEqual([
      { metric: 'foo_total', labels: ['status', 'x'] },
      { metric: 'bar', labels: [] },
      { metric: 'baz_count', labels: [] },
    ]);
  });

  it.each(rules.map((r) => [r.alert ?? r.record!, r.expr] as const))(
    '%s names only metrics (and labels) that /metrics exports',
    async (_name, expr) => {
      const known = await exported();
      const found = selectors(expr);
      expect(found.length).toBeGreaterThan(0);
      for (const s of found) {
        expect(known.has(s.metric), `${s.metric} is not exported by /metrics`).toBe(true);
        for (const l of s.labels) expect([...known.get(s.metric)!], `${s.metric} has no label ${l}`).toContain(l);
      }
    },
  );
});
