// `npm run move -- <slug> --to <region>`: starts a workspace move as Atlas does and follows its
// steps; `--cancel`, `--settle`, `--by` (docs/flows/moves.md).
import fs from 'node:fs';
import path from 'node:path';

function usage(message?: string): never {
  if (message) console.error(message);
  console.error('usage: npm run move -- <slug> --to <region> [--by <operator email>]');
  console.error('       npm run move -- --cancel <mov_id> [--by <operator email>]');
  console.error('       npm run move -- --settle <mov_id>');
  process.exit(2);
}

const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const to = flag('--to');
const by = flag('--by');
const cancelId = flag('--cancel');
const settleId = flag('--settle');
const slug = args.find(
  (a, i) => !a.startsWith('--') && !['--to', '--by', '--cancel', '--settle'].includes(args[i - 1] ?? ''),
);
if (!cancelId && !settleId) {
  if (!slug || !/^[a-z0-9][a-z0-9-]{1,62}$/.test(slug)) usage(slug ? `"${slug}" is not a workspace slug` : undefined);
  if (!to || !/^[a-z]{3}[1-9][0-9]*$/.test(to))
    usage(to ? `"${to}" is not a region code` : 'name the target: --to <region>');
}

const dataDir = path.resolve(process.env.MERIDIAN_DATA_DIR ?? '.data');
const credsFile = path.join(dataDir, 'demo-credentials.json');
if (!process.env.DATABASE_URL && fs.existsSync(credsFile)) {
  const creds = JSON.parse(fs.readFileSync(credsFile, 'utf8')) as { databases?: { primary?: string } };
  process.env.DATABASE_URL = creds.databases?.primary;
}
if (!process.env.DATABASE_URL) usage('DATABASE_URL is not set (and no demo credentials were found)');
process.env.LOG_LEVEL ??= 'warn';

const { primary, disconnectAll } = await import('../server/db/client');
const { startMove, cancelMove, getMoveFromPrimary } = await import('../server/moves/moves');
const { settleMove } = await import('../server/moves/settlement');
const { newRequestId } = await import('../server/ids');
const { isAppError } = await import('../server/errors');

const operators = await primary().user.findMany({
  where: { platformRole: 'operator', ...(by ? { email: by.toLowerCase() } : {}) },
  select: { id: true, email: true },
});
if (operators.length !== 1) {
  await disconnectAll();
  usage(by ? `${by} is not a platform operator` : 'name the operator: --by <email> (there is not exactly one)');
}
const actor = { userId: operators[0]!.id };
const req = () => ({
  requestId: newRequestId('global'),
  gatewayRegion: 'global',
  org: null,
  consistency: {},
  response: { headers: {} },
});

if (settleId) {
  try {
    await settleMove(settleId);
    const m = await getMoveFromPrimary(settleId);
    console.log(`${m.slug}: ${m.status}${m.error ? `: ${m.error}` : ''}`);
  } catch (e) {
    if (!isAppError(e)) throw e;
    console.error(`${e.status} ${e.code}: ${e.message}`);
    process.exitCode = 1;
  } finally {
    await disconnectAll();
  }
  process.exit();
}

try {
  let move = cancelId
    ? await cancelMove(req(), actor, cancelId)
    : await startMove(req(), actor, { slug: slug!, to_region: to! });
  console.log(
    `${cancelId ? 'cancelling' : 'moving'} ${move.slug}: ${move.from_region} → ${move.to_region} (${move.id}, run ${move.run_id})`,
  );
  const printed = new Map<string, string>();
  for (;;) {
    for (const s of move.steps) {
      const line = `${s.status}${s.attempts > 1 ? ` (attempt ${s.attempts})` : ''}${s.duration_ms !== null ? ` ${s.duration_ms} ms` : ''}${s.error ? `: ${s.error}` : ''}`;
      if (printed.get(s.name) !== line) {
        printed.set(s.name, line);
        console.log(`  ${s.name.padEnd(11)} ${line}`);
      }
    }
    if (['completed', 'failed', 'cancelled'].includes(move.status)) break;
    await new Promise((r) => setTimeout(r, 500));
    move = await getMoveFromPrimary(move.id);
  }
  const ro = move.read_only.seconds;
  console.log(
    `${move.status}${move.error ? `: ${move.error}` : ''}${ro !== null ? ` (read-only ${ro.toFixed(2)} s)` : ''}`,
  );
  for (const t of move.tables) {
    console.log(
      `  ${t.name.padEnd(22)} ${String(t.count).padStart(7)} rows  ${t.digest.slice(0, 16)}  ${t.match === null ? '' : t.match ? 'match' : 'DIFFERS'}`,
    );
  }
  process.exitCode = move.status === 'completed' || move.status === 'cancelled' ? 0 : 1;
} catch (e) {
  if (isAppError(e)) {
    console.error(`${e.status} ${e.code}: ${e.message}`);
    process.exitCode = 1;
  } else throw e;
} finally {
  await disconnectAll();
}
// The region registry's NOTIFY listener (and pools) would keep the process alive.
process.exit();
