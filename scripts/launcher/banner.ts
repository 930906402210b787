// What the launcher prints once everything serves: the addresses, the demo users and API keys.
import path from 'node:path';
import type { LocalStack } from '../../dev/local-stack';

export function printBanner(log: (line: string) => void, stack: LocalStack, startedAt: number): void {
  const c = stack.credentials;
  console.log('');
  log(`Meridian is up (${((Date.now() - startedAt) / 1000).toFixed(1)} s)`);
  log(`  global address  ${c.global_url}`);
  if (c.gateways) {
    for (const g of c.gateways) log(`  gateway ${g.name.padEnd(9)} ${g.url}   (readiness ${g.url}/api/readyz)`);
  } else {
    for (const [code, url] of Object.entries(c.regions)) log(`  region ${code.padEnd(8)} ${url}`);
  }
  log('  sign in with:');
  for (const u of c.users) log(`    ${u.email.padEnd(20)} ${u.password}   (${u.role}${u.org ? ` of ${u.org}` : ''})`);
  log('  API keys:');
  for (const k of c.api_keys) log(`    ${k.org.padEnd(7)} ${k.region.padEnd(5)} ${k.key}`);
  for (const k of c.global_api_keys) log(`    ${k.org.padEnd(7)} ${'all'.padEnd(5)} ${k.key}   (organization-wide)`);
  log(`  credentials written to ${path.relative(process.cwd(), stack.credentialsFile)} (mode 600)`);
  log('Press Ctrl-C to stop.');
}
