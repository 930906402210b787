// `meridian orgs create|list|suspend|reactivate|offboard|cancel-offboard`: the organizations'
// lifecycle, for platform operators (a session token). docs/flows/workspace-lifecycle.md
import type { Command } from 'commander';
import type { AtlasOrganization, MeridianClient } from '../../index.js';
import { clientFor, collect, emitList, emitOne, regionOption } from '../invocation.js';
import { status, table } from '../output.js';

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** An `org_…` ID as given, or the ID of the organization whose slug is `ref`. */
async function orgId(client: MeridianClient, ref: string): Promise<string> {
  if (/^org_[0-9A-Za-z]{26}$/.test(ref)) return ref;
  for await (const o of client.atlas.organizations.iterate({ q: ref })) if (o.slug === ref) return o.id;
  return ref; // the API answers 404 for it
}

/** `meridian orgs list` (and `meridian atlas orgs`): every organization, its status and size. */
export async function listOrganizations(opts: { search?: string; region?: string }, cmd: Command): Promise<void> {
  const rows = await collect(
    clientFor(cmd).atlas.organizations.iterate({ q: opts.search, region: opts.region }),
    10_000,
  );
  emitList<AtlasOrganization>(cmd, rows, (r) =>
    table(r, [
      { header: 'ID', cell: (o) => o.id },
      { header: 'SLUG', cell: (o) => o.slug },
      { header: 'STATUS', cell: (o) => status(o.status) },
      { header: 'REGIONS', cell: (o) => o.allowed_regions.join(' ') },
      { header: 'DEFAULT', cell: (o) => o.default_region ?? '' },
      { header: 'CLUSTERS', cell: (o) => o.clusters.total },
      { header: 'KEYS', cell: (o) => o.active_api_keys },
      { header: 'PURGE AFTER', cell: (o) => o.purge_after ?? '' },
    ]),
  );
}

export function registerOrgs(program: Command): void {
  const orgs = program.command('orgs').description('organizations and their lifecycle, for platform operators');
  orgs
    .command('list', { isDefault: true })
    .description('every organization with its lifecycle status')
    .option('--search <text>', 'slug, name or org_…')
    .addOption(regionOption())
    .action(listOrganizations);
  orgs
    .command('create')
    .description('create an organization; a new admin gets a one-time link, printed once')
    .requiredOption('--slug <slug>', 'the workspace, unique across every region')
    .requiredOption('--name <name>', 'its display name')
    .requiredOption('--home-region <code>', 'where the directory sends its people')
    .requiredOption('--admin-email <email>', 'the first admin')
    .option('--admin-name <name>', 'the first admin’s name, for a new user')
    .option('--regions <codes>', 'allowed regions, comma-separated (default: the home region)', list)
    .option('--default-region <code>', 'where mutations go when they name none')
    .action(
      async (
        o: {
          slug: string;
          name: string;
          homeRegion: string;
          adminEmail: string;
          adminName?: string;
          regions?: string[];
          defaultRegion?: string;
        },
        cmd,
      ) => {
        const out = await clientFor(cmd).atlas.organizations.create({
          slug: o.slug,
          name: o.name,
          home_region: o.homeRegion,
          admin_email: o.adminEmail,
          admin_name: o.adminName,
          allowed_regions: o.regions,
          default_region: o.defaultRegion,
        });
        emitOne(cmd, out, out.organization.id, {
          id: out.organization.id,
          slug: out.organization.slug,
          regions: out.organization.allowed_regions.join(' '),
          admin: `${out.first_admin.email}${out.first_admin.existing_user ? ' (existing user)' : ''}`,
          ...(out.first_admin.setup_link
            ? {
                setup_link: out.first_admin.setup_link.url,
                expires: out.first_admin.setup_link.expires_at,
                note: 'give the link to the admin now: it is not shown again',
              }
            : {}),
        });
      },
    );
  for (const [name, suspend] of [
    ['suspend', true],
    ['reactivate', false],
  ] as const) {
    orgs
      .command(`${name} <org>`)
      .description(`${name} an organization (slug or org_…); audited with the reason`)
      .requiredOption('--reason <text>', 'why (kept in the audit log)')
      .action(async (ref: string, o: { reason: string }, cmd) => {
        const client = clientFor(cmd);
        const id = await orgId(client, ref);
        const out = await (suspend
          ? client.atlas.organizations.suspend(id, o.reason)
          : client.atlas.organizations.reactivate(id, o.reason));
        emitOne(cmd, out, out.id, { id: out.id, slug: out.slug, status: out.status });
      });
  }
  orgs
    .command('offboard <org>')
    .description('offboard an organization: read-only now, clusters deleted, data purged after 7 days')
    .requiredOption('--confirm <slug>', 'the organization’s slug, typed again')
    .action(async (ref: string, o: { confirm: string }, cmd) => {
      const client = clientFor(cmd);
      const out = await client.atlas.organizations.offboard(await orgId(client, ref), o.confirm);
      emitOne(cmd, out, out.id, {
        id: out.id,
        slug: out.slug,
        status: out.status,
        purge_after: out.purge_after,
        clusters_deleting: out.clusters_deleting.length,
      });
    });
  orgs
    .command('cancel-offboard <org>')
    .description('cancel an offboarding during its grace period')
    .action(async (ref: string, _o: unknown, cmd) => {
      const client = clientFor(cmd);
      const out = await client.atlas.organizations.cancelOffboard(await orgId(client, ref));
      emitOne(cmd, out, out.id, { id: out.id, slug: out.slug, status: out.status });
    });
}
