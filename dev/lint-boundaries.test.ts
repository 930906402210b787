// The import boundaries in eslint.config.mjs, exercised: each rule refuses a real violation (so a
// weakened config fails here, not silently) and allows the imports the layering intends.
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

let eslint: ESLint;

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

/** What the database-access rules (one way into the database, SQL in `*.sql.ts`) say about `code`. */
async function dbAccess(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

beforeAll(async () => {
  eslint = new ESLint({ cwd: process.cwd() });
  // The first lint loads the config and its plugins (seconds on a busy 2-core machine): do it
  // here, under this hook's timeout, not inside the first case's 5 s.
  await eslint.lintText('export {};\n', { filePath: 'server/db/x.ts' });
}, 60_000);

describe('import boundaries', () => {
  it.each([
    ['server/db/x.ts', "import { createContext } from '../api/context';\nexport const a = createContext;"],
    [
      'server/db/x.ts',
      "import { clusterKubeconfig } from '../clusters/kubeconfig';\nexport const a = clusterKubeconfig;",
    ],
    ['server/clusters/x.ts', "import { router } from '../api/trpc';\nexport const a = router;"],
    ['server/api/routers/x.ts', "import { primary } from '../../db/client';\nexport const a = primary;"],
    ['server/region/x.ts', "import { freePort } from '../../dev/ports';\nexport const a = freePort;"],
    ['server/api/x.ts', "import { seedDemo } from '~/dev/demo/seed';\nexport const a = seedDemo;"],
    ['server/x.ts', "import { ensureBuild } from '../dev/build';\nexport const a = ensureBuild;"],
    ['server/db/x.test.ts', "import { query } from '../../dev/testing/db';\nexport const a = query;"],
    ['components/x.tsx', "import { read } from '~/server/db/access';\nexport const a = read;"],
    ['lib/x.ts', "import { env } from '../server/env';\nexport const a = env;"],
    ['components/x.tsx', "import { previewPolicy } from '~/server/routing/preview';\nexport const a = previewPolicy;"],
    ['server/routing/policy-content.ts', "import { env } from '../env';\nexport const a = env;"],
    ['server/routing/policy-diff.ts', "import { builtInDefault } from './policy';\nexport const a = builtInDefault;"],
  ])('%s: refuses %s', async (file, code) => {
    expect(await restricted(file, code)).not.toEqual([]);
  });

  it.each([
    [
      'server/api/routers/x.ts',
      "import { createCluster } from '../../clusters/create';\nexport const a = createCluster;",
    ],
    ['server/clusters/x.ts', "import { read } from '../db/access';\nexport const a = read;"],
    ['server/db/x.ts', "import { env } from '../env';\nexport const a = env;"],
    ['components/x.tsx', "import type { AppRouter } from '~/server/api/root';\nexport type A = AppRouter;"],
    [
      'components/x.tsx',
      "import { IN_PROGRESS_STATUSES } from '~/lib/cluster-status';\nexport const a = IN_PROGRESS_STATUSES;",
    ],
    [
      'components/x.tsx',
      "import { policyContentView } from '~/server/routing/policy-content';\nexport const a = policyContentView;",
    ],
    ['tests/db/x.integration.test.ts', "import { query } from '../../dev/testing/db';\nexport const a = query;"],
  ])('%s: allows %s', async (file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });
});

describe('components', () => {
  async function refusals(code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: 'components/arc/x.tsx' });
    return result!.messages
      .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports')
      .map((m) => m.message);
  }

  it('import server actions from server/api/actions, never app/, and mutate through them only', async () => {
    for (const code of [
      "import { createProject } from '~/app/arc/projects/actions';\nexport const a = createProject;",
      "import Page from '../../app/arc/page';\nexport const a = Page;",
      "import { useMutation } from '@tanstack/react-query';\nexport const a = useMutation;",
      "import { createCaller } from '~/server/api/root';\nexport const a = createCaller;",
    ]) {
      expect(await refusals(code), code).not.toEqual([]);
    }
    for (const code of [
      "import { createProject } from '~/server/api/actions/projects';\nexport const a = createProject;",
      "import { useQuery } from '@tanstack/react-query';\nexport const a = useQuery;",
    ]) {
      expect(await refusals(code), code).toEqual([]);
    }
  });
});

describe('database access', () => {
  it.each([
    ['server/clusters/x.ts', "import { primary } from '../db/client';\nexport const a = primary;"],
    ['server/clusters/x.ts', "import { poolOf } from '~/server/db/client';\nexport const a = poolOf;"],
    ['server/api/middleware/x.ts', "import { replica } from '../../db/client';\nexport const a = replica;"],
    ['server/clusters/x.ts', "import { connect } from '../db/client';\nexport const a = connect;"],
    ['app/x/route.ts', "import { replica } from '~/server/db/client';\nexport const a = replica;"],
    ['server/clusters/x.ts', "import pg from 'pg';\nexport const a = pg;"],
    ['server/clusters/x.ts', "import type pg from 'pg';\nexport type A = pg.Pool;"],
    ['server/clusters/x.sql.ts', "import pg from 'pg';\nexport const a = pg;"],
    ['server/clusters/x.ts', 'export const a = (db: any) => db.$queryRaw`SELECT 1`;'],
    ['server/clusters/x.ts', "export const a = (db: any) => db.$queryRawUnsafe('SELECT 1');"],
    ['server/clusters/x.ts', 'export const a = (db: any) => db.$executeRaw`DELETE FROM t`;'],
    ['server/clusters/x.ts', "export const a = (db: any) => db.$executeRawUnsafe('DELETE FROM t');"],
    ['server/clusters/x.ts', "export const a = (pool: any) => pool.query('SELECT 1');"],
    ['server/clusters/x.ts', 'export const a = (pool: any, q: string) => pool.query({ text: q });'],
    ['server/api/routers/x.ts', 'export const a = (db: any) => db.$queryRaw`SELECT 1`;'],
    ['components/x.tsx', "import pg from 'pg';\nexport const a = pg;"],
    ['components/x.tsx', "import { primary } from '~/server/db/client';\nexport const a = primary;"],
  ])('%s: refuses %s', async (file, code) => {
    expect(await dbAccess(file, code)).not.toEqual([]);
  });

  it.each([
    ['server/clusters/x.ts', "import type { Db } from '../db/client';\nexport type A = Db;"],
    ['server/clusters/x.ts', "import { backgroundDb } from '../db/background';\nexport const a = backgroundDb;"],
    ['server/clusters/x.ts', "import { run } from '../db/sql';\nexport const a = run;"],
    ['server/db/x.ts', "import pg from 'pg';\nexport const a = (p: pg.Pool) => p.query('SELECT 1');"],
    ['server/db/x.ts', "import { primary } from './client';\nexport const a = () => primary().$queryRaw`SELECT 1`;"],
    ['server/clusters/x.sql.ts', "export const a = (db: any) => db.$queryRawUnsafe('SELECT 1');"],
    ['server/api/routers/x.ts', 'export const a = (p: any) => p.query(async () => 1);'],
    ['server/api/routers/x.ts', 'export const a = (p: any) => p.query(function () {});'],
    ['tests/db/x.integration.test.ts', "import pg from 'pg';\nexport const a = (p: pg.Pool) => p.query('SELECT 1');"],
    ['server/clusters/x.test.ts', "export const a = (p: any) => p.query('SELECT 1');"],
    ['dev/x.ts', "import pg from 'pg';\nexport const a = (p: pg.Pool) => p.query('SELECT 1');"],
  ])('%s: allows %s', async (file, code) => {
    expect(await dbAccess(file, code)).toEqual([]);
  });
});
