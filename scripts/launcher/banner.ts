// What the launcher prints once everything serves: the addresses, the demo users and API keys.
import path from 'node:path';
import type { LocalStack } from '../../dev/local-stack';
import { describe, linkName, type WanProfile } from '../../dev/wan/profile';

/** `--wan`: the profile, and whether the gateways are one per region because of it. */
interface WanBanner {
  profile: WanProfile;
  defaultGateways: boolean;
}

export function printBanner(log: (line: string) => void, stack: LocalStack, startedAt: number, wan?: WanBanner): void {
  const c = stack.credentials;
  console.log('');
  log(`Meridian is up (${((Date.now() - startedAt) / 1000).toFixed(1)} s)`);
  if (wan) {
    const p = wan.profile;
    const far = p.sites.at(-1) ?? p.mothership;
    log(`  WAN             ${describe(p)}`);
    if (wan.defaultGateways) log('                  one gateway process per region plus the global one (--wan)');
    if (far !== p.mothership) {
      log(`                  cut a link: npm run wan -- cut ${linkName(far, p.mothership)}   (heal, status)`);
    }
  }
  log(`  global address  ${c.global_url}`);
  if (c.gateways) {
    for (const g of c.gateways) log(`  gateway ${g.name.padEnd(9)} ${g.url}   (readiness ${g.url}/api/readyz)`);
  } else {
    for (const [code, url] of Object.entries(c.regions)) log(`  region ${code.padEnd(8)} ${url}`);
  }
  log('  sign in with:');
  for (const u of c.users) log(`    ${u.email.padEnd(20)} ${u.password}   (${u.role}${u.org ? ` of ${u.org}` : ''})`);
  if (c.sso) {
    log(`  sign in with SSO (demo identity provider ${c.sso.issuer}):`);
    for (const u of c.sso.users) {
      const where = u.workspace ? `workspace ${u.workspace}` : '“Operators: sign in with SSO”';
      log(`    ${u.email.padEnd(20)} ${u.password}   (${u.note}; ${where})`);
    }
  }
  log('  API keys:');
  for (const k of c.api_keys) log(`    ${k.org.padEnd(7)} ${k.region.padEnd(5)} ${k.key}`);
  for (const k of c.global_api_keys) log(`    ${k.org.padEnd(7)} ${'all'.padEnd(5)} ${k.key}   (organization-wide)`);
  log(`  credentials written to ${path.relative(process.cwd(), stack.credentialsFile)} (mode 600)`);
  log('Press Ctrl-C to stop.');
}
