// `npm run directory:rotate -- <region> [--grace <seconds>] [--finish]`: rotates a cell's signing
// key and proves it with a signed call (docs/flows/directory.md).
import fs from 'node:fs';
import path from 'node:path';

function usage(message?: string): never {
  if (message) console.error(message);
  console.error('usage: npm run directory:rotate -- <region> [--grace <seconds>] [--finish]');
  process.exit(2);
}

const args = process.argv.slice(2);
const region = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--grace');
if (!region || !/^[a-z]{3}[1-9][0-9]*$/.test(region)) usage(region ? `"${region}" is not a region code` : undefined);
const finish = args.includes('--finish');
const graceArg = args.includes('--grace') ? Number(args[args.indexOf('--grace') + 1]) : 600;
if (!Number.isInteger(graceArg) || graceArg < 0 || graceArg > 86_400) usage('--grace takes 0 to 86400 seconds');

// The local demo's defaults, from what `npm start` wrote.
const dataDir = path.resolve(process.env.MERIDIAN_DATA_DIR ?? '.data');
const readIf = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim() : undefined);
const demo = readIf(path.join(dataDir, 'demo-credentials.json'));
const creds = demo ? (JSON.parse(demo) as { global_url?: string; databases?: { primary?: string } }) : {};
process.env.DATABASE_URL ??= creds.databases?.primary;
process.env.MERIDIAN_DIRECTORY_SECRET ??= readIf(path.join(dataDir, 'directory-secret'));
process.env.MERIDIAN_CELL_KEYS_FILE ??= path.join(dataDir, 'cell-keys.json');
if (!process.env.MERIDIAN_DIRECTORY_URL && creds.global_url) process.env.MERIDIAN_DIRECTORY_URL = creds.global_url;
if (!process.env.DATABASE_URL) usage('DATABASE_URL is not set (and no demo credentials were found)');
if (!process.env.MERIDIAN_DIRECTORY_SECRET)
  usage('MERIDIAN_DIRECTORY_SECRET is not set (and no demo secret was found)');

const { primary, disconnectAll } = await import('../server/db/client');
const { rotateCellKey, finishRotation } = await import('../server/directory/rotation');
const { writeCellKey } = await import('../server/cell/keys');
const { callDirectory } = await import('../server/cell/client');
const { env } = await import('../server/env');

async function proveWithSignedCall(): Promise<void> {
  const row = await primary().directoryRegion.findUniqueOrThrow({ where: { code: region! } });
  try {
    await callDirectory(region!, 'PUT', `/internal/v1/regions/${region}`, {
      name: row.name,
      address: row.baseUrl,
      status: row.status,
    });
    console.log(`✓ the directory accepts ${region}'s key version ${row.keyVersion} (a signed call just succeeded)`);
  } catch (e) {
    console.warn(`! could not prove the new key with a signed call: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}

try {
  if (finish) {
    const done = await finishRotation(primary(), region!);
    console.log(`✓ rotation of ${region} finished: only key version ${done.version} is accepted from now on`);
    await proveWithSignedCall();
  } else {
    const r = await rotateCellKey(primary(), region!, graceArg);
    console.log(
      `✓ ${region}: key version ${r.version} is current; version ${r.previousVersion} is still accepted until ${r.previousUntil?.toISOString()}`,
    );
    writeCellKey(env().MERIDIAN_CELL_KEYS_FILE!, region!, r.version, r.key);
    console.log(
      `✓ wrote ${region}'s new key to ${env().MERIDIAN_CELL_KEYS_FILE} (mode 600): running cells pick it up on their next call`,
    );
    await proveWithSignedCall();
    console.log(
      `next: once every process of ${region}'s cell uses it, run \`npm run directory:rotate -- ${region} --finish\``,
    );
  }
} catch (e) {
  console.error(`✗ ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await disconnectAll();
}
