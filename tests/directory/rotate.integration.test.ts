// `npm run directory:rotate -- <region>` end to end: the real script (a child process) against
// the test's database and a directory behind real HTTP; the cell's keys file it writes is what
// the cell then signs with; both versions work during the grace, only the new one after --finish.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useDemoDatabase } from '../../dev/testing/app';
import { primary } from '../../server/db/client';
import { directorySecret } from '../../server/directory/keys';
import { resetEnvCache } from '../../server/env';
import { registerWithDirectory } from '../../server/cell/registration';
import { callDirectory } from '../../server/cell/client';
import { directoryServer, directorySnapshot, provisionKeys, routes, signedRequest } from './harness';

const run = promisify(execFile);
let directory: Awaited<ReturnType<typeof directoryServer>>;
let keysFile: string;
let databaseUrl: string;

beforeAll(async () => {
  ({
    urls: { primary: databaseUrl },
  } = await useDemoDatabase('directory_rotate'));
  keysFile = provisionKeys();
  directory = await directoryServer();
  process.env.MERIDIAN_DIRECTORY_URL = directory.url;
  resetEnvCache();
  await registerWithDirectory();
});

afterAll(async () => {
  await directory?.close();
});

const rotate = (...args: string[]) =>
  run('npx', ['tsx', 'scripts/directory-rotate.ts', ...args], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      MERIDIAN_DIRECTORY_SECRET: directorySecret(),
      MERIDIAN_CELL_KEYS_FILE: keysFile,
      MERIDIAN_DIRECTORY_URL: directory.url,
    },
    timeout: 60_000,
  });

const put = async (version: number) => {
  const { internal } = await routes();
  return internal(
    signedRequest(
      'ams1',
      'PUT',
      '/internal/v1/regions/ams1',
      { name: 'Amsterdam', address: 'http://ams1.localhost:3000', status: 'active' },
      { version },
    ),
  );
};

it(
  'rotates a cell key: new key written, both accepted during the grace, old refused after --finish',
  { timeout: 120_000 },
  async () => {
    const started = await rotate('ams1', '--grace', '600');
    expect(started.stdout).toContain('ams1: key version 2 is current; version 1 is still accepted until');
    expect(started.stdout).toContain('the directory accepts ams1');
    const file = JSON.parse(fs.readFileSync(keysFile, 'utf8')) as Record<string, { version: number }>;
    expect(file.ams1!.version).toBe(2);
    expect(fs.statSync(keysFile).mode & 0o777).toBe(0o600);
    expect((await primary().directoryRegion.findUniqueOrThrow({ where: { code: 'ams1' } })).keyVersion).toBe(2);
    // The directory stores versions only: no key, in clear or otherwise.
    const keys = Object.values(JSON.parse(fs.readFileSync(keysFile, 'utf8')) as Record<string, { key: string }>).map(
      (k) => k.key,
    );
    const snapshot = await directorySnapshot();
    for (const k of keys) expect(snapshot).not.toContain(k);

    expect((await put(1)).status).toBe(200);
    expect((await put(2)).status).toBe(200);
    // The running cell signs with what the file now holds.
    await expect(callDirectory('ams1', 'POST', '/internal/v1/workspaces/wayne/reserve')).resolves.toMatchObject({
      region: 'ams1',
    });

    const finished = await rotate('ams1', '--finish');
    expect(finished.stdout).toContain('only key version 2 is accepted');
    const old = await put(1);
    expect(old.status).toBe(401);
    expect(((await old.json()) as { error: { code: string } }).error.code).toBe('invalid_signature');
    expect((await put(2)).status).toBe(200);

    // Bad input: exit 2 with the usage.
    await expect(rotate('AMS')).rejects.toMatchObject({ code: 2 });
  },
);
