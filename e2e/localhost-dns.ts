// `sfo1.localhost` and the other region hosts are loopback (RFC 6761 §6.3): Chromium resolves
// them itself, Node's resolver (which Playwright's `request` API uses) does not. So the journeys'
// HTTP calls resolve `*.localhost` the way the browser does. Test tooling only.
import dns from 'node:dns';

const isLocal = (host: string) => /\.localhost\.?$/i.test(host);
const { lookup } = dns.promises;

dns.promises.lookup = (async (hostname: string, options?: dns.LookupOptions | number) => {
  if (!isLocal(hostname)) return lookup(hostname, options as dns.LookupOptions);
  const family = typeof options === 'number' ? options : (options?.family ?? 0);
  const address = family === 6 ? { address: '::1', family: 6 } : { address: '127.0.0.1', family: 4 };
  return typeof options === 'object' && options?.all ? [address] : address;
}) as typeof dns.promises.lookup;
