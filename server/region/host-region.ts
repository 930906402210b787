// The region named by a request's host: `sfo1.localhost:3000` → `sfo1`; the bare host → none.
import { isRegionCode } from './code';

export interface HostRegion {
  /** The first label when the host is `{label}.{baseHost}`; undefined at the global address. */
  label?: string;
  /** Whether that label has the shape of a region code. */
  wellFormed: boolean;
}

export function hostRegion(host: string | null | undefined, baseHost: string): HostRegion {
  if (!host) return { wellFormed: false };
  const name = host.toLowerCase().replace(/:\d+$/, '');
  const base = baseHost.toLowerCase();
  if (name === base || !name.endsWith(`.${base}`)) return { wellFormed: false };
  const label = name.slice(0, -(base.length + 1));
  return { label, wellFormed: isRegionCode(label) };
}
