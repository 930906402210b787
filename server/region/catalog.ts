// Descriptions of the regions Meridian knows how to bring up locally. The registry of a
// running gateway comes from the database (`regions` table); this only seeds it.
export interface RegionDescription {
  code: string;
  label: string;
  country: string;
  timezone: string;
  provider: string;
}

const KNOWN: Record<string, Omit<RegionDescription, 'code'>> = {
  sfo: { label: 'San Francisco', country: 'US', timezone: 'America/Los_Angeles', provider: 'meridian-metal' },
  lax: { label: 'Los Angeles', country: 'US', timezone: 'America/Los_Angeles', provider: 'meridian-metal' },
  ams: { label: 'Amsterdam', country: 'NL', timezone: 'Europe/Amsterdam', provider: 'meridian-metal' },
  iad: { label: 'Ashburn', country: 'US', timezone: 'America/New_York', provider: 'meridian-metal' },
  fra: { label: 'Frankfurt', country: 'DE', timezone: 'Europe/Berlin', provider: 'meridian-metal' },
  nrt: { label: 'Tokyo', country: 'JP', timezone: 'Asia/Tokyo', provider: 'meridian-metal' },
  syd: { label: 'Sydney', country: 'AU', timezone: 'Australia/Sydney', provider: 'meridian-metal' },
  lhr: { label: 'London', country: 'GB', timezone: 'Europe/London', provider: 'meridian-metal' },
};

export function describeRegion(code: string): RegionDescription {
  const iata = code.slice(0, 3);
  const n = code.slice(3);
  const known = KNOWN[iata];
  if (!known) return { code, label: code.toUpperCase(), country: 'US', timezone: 'UTC', provider: 'meridian-metal' };
  return { code, ...known, label: n === '1' ? known.label : `${known.label} ${n}` };
}

/** `http://sfo1.localhost:3000`: each region's gateway on the local demo host. */
export function localRegionUrl(code: string, host: string, port: number): string {
  return `http://${code}.${host}:${port}`;
}
