// A strict reader of the Prometheus text exposition format, checking what promtool checks (line
// shapes, names, families, cumulative histogram buckets ending in le="+Inf" equal to _count).
const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\["\\\\n])*"`;
const SAMPLE_RE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (\\S+)(?: (-?\\d+))?$`);
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parsePrometheusText(text: string): { families: Map<string, string>; samples: Sample[] } {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, i) => {
    const at = `line ${i + 1}: ${line}`;
    if (line.startsWith('# HELP ')) {
      if (!new RegExp(`^# HELP ${NAME} `).test(line)) throw new Error(`bad HELP, ${at}`);
      return;
    }
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      if (!name || !type || !TYPES.has(type) || !new RegExp(`^${NAME}$`).test(name)) throw new Error(`bad TYPE, ${at}`);
      if (families.has(name)) throw new Error(`duplicate TYPE, ${at}`);
      families.set(name, type);
      return;
    }
    if (line === '') return; // the format allows empty lines (prom-client separates families with them)
    if (line.startsWith('#')) throw new Error(`stray comment, ${at}`);
    const m = SAMPLE_RE.exec(line);
    if (!m) throw new Error(`malformed sample, ${at}`);
    // Special values in any case, as Prometheus reads them (Go's ParseFloat): prom-client writes
    // NaN as "Nan" (an event-loop lag with no sample since the last scrape).
    const special = m[3]!.toLowerCase();
    const value = ['+inf', 'inf'].includes(special)
      ? Infinity
      : special === '-inf'
        ? -Infinity
        : special === 'nan'
          ? NaN
          : Number(m[3]);
    if (Number.isNaN(value) && special !== 'nan') throw new Error(`bad value, ${at}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(new RegExp(LABEL, 'g'))) {
      const eq = l[0].indexOf('=');
      labels[l[0].slice(0, eq)] = l[0].slice(eq + 2, -1);
    }
    const name = m[1]!;
    const family = [name, name.replace(/_(bucket|sum|count|total|created)$/, '')].find((n) => families.has(n));
    if (!family) throw new Error(`sample of an undeclared family, ${at}`);
    samples.push({ name, labels, value });
  });
  for (const [family, type] of families) {
    if (type !== 'histogram') continue;
    const series = new Map<string, Sample[]>();
    for (const s of samples.filter((x) => x.name === `${family}_bucket`)) {
      const { le, ...rest } = s.labels;
      void le;
      const key = JSON.stringify(rest);
      series.set(key, [...(series.get(key) ?? []), s]);
    }
    for (const [key, buckets] of series) {
      let prev = -1;
      for (const b of buckets) {
        if (b.value < prev) throw new Error(`${family}${key}: buckets not cumulative`);
        prev = b.value;
      }
      const inf = buckets.at(-1)!;
      if (inf.labels.le !== '+Inf') throw new Error(`${family}${key}: last bucket is not le="+Inf"`);
      const count = samples.find((x) => x.name === `${family}_count` && JSON.stringify(x.labels) === key);
      if (!count || count.value !== inf.value) throw new Error(`${family}${key}: _count differs from the +Inf bucket`);
    }
  }
  return { families, samples };
}
