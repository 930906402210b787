// Which address a region's cell may register: one of this deployment's, since the global address
// sends browsers there with a hand-off. Pure: the rules come in as arguments.

export interface AddressRules {
  /** MERIDIAN_HOST: regions live at `{region}.{host}`. */
  host: string;
  /** The global address's scheme: http is accepted only when the global address is http itself. */
  globalScheme: 'http:' | 'https:';
  /** DIRECTORY_REGION_ADDRESSES: a region listed there may register only its listed origins. */
  listed: Readonly<Record<string, readonly string[]>>;
}

/** Why `address` may not be `region`'s, or null when it may. */
export function addressProblem(region: string, address: string, rules: AddressRules): string | null {
  let u: URL;
  try {
    u = new URL(address);
  } catch {
    return 'not a URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'http(s) only';
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) {
    return 'an origin only (scheme, host and port: no user, path, query or fragment)';
  }
  const listed = rules.listed[region];
  if (listed?.length) {
    return listed.includes(u.origin) ? null : `${region} may register only ${listed.join(', ')}`;
  }
  if (u.protocol === 'http:' && rules.globalScheme === 'https:') return 'https only (the global address is https)';
  const want = `${region}.${rules.host}`.toLowerCase();
  return u.hostname.toLowerCase() === want ? null : `the host must be ${want}`;
}
