// The journeys' stack's primary, for checks the UI can't show and for giving rate budgets back.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const dataDir = process.env.E2E_DATA_DIR ?? '.data/e2e';

export const demoCredentials = () =>
  JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
    api_keys: { org: string; region: string; key: string }[];
    databases: { primary: string };
  };

export async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: demoCredentials().databases.primary });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

/** Every journey calls from the same loopback address: give it `limit`'s budget back. */
export async function giveBackBudget(limit: string): Promise<void> {
  await sql(`DELETE FROM rate_limits WHERE key LIKE $1`, [`${limit}%`]);
}
