// Region codes: IATA + number (`sfo1`, `lax2`). `global` is the global address, never a region.
export const REGION_CODE_RE = /^[a-z]{3}[1-9][0-9]*$/;

export function isRegionCode(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 12 && REGION_CODE_RE.test(value);
}
