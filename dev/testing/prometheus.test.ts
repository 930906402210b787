import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from './prometheus';

describe('parsePrometheusText', () => {
  it('accepts well-formed text and rejects what promtool rejects', () => {
    const ok = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1"} 3\n';
    expect(parsePrometheusText(ok).samples).toEqual([{ name: 'a_total', labels: { x: '1' }, value: 3 }]);
    expect(() => parsePrometheusText('a_total 3\n')).toThrow(/undeclared/);
    expect(() => parsePrometheusText('# TYPE a counter\na{x=1} 3\n')).toThrow(/malformed/);
    expect(() =>
      parsePrometheusText('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n'),
    ).toThrow(/cumulative/);
  });

  it('reads special values in any case, as Prometheus does (prom-client\'s NaN is "Nan")', () => {
    const text = '# TYPE g gauge\ng{k="a"} Nan\ng{k="b"} +Inf\ng{k="c"} -inf\n';
    expect(parsePrometheusText(text).samples.map((s) => s.value)).toEqual([NaN, Infinity, -Infinity]);
    expect(() => parsePrometheusText('# TYPE g gauge\ng nope\n')).toThrow(/bad value/);
  });
});
