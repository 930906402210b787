// docs/api.md's "Page sizes, caps and cleanups" against the constants that enforce them: a number
// changed in the code and not on the page (or the other way round) fails here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_ACTIVE_API_KEYS } from '../api-keys/api-keys';
import { REVOKED_API_KEY_RETENTION_DAYS } from '../api-keys/retention';
import { MAX_ACTIVE_CREDENTIALS } from '../clusters/kubeconfig';
import { REVOKED_CREDENTIAL_RETENTION_DAYS } from '../clusters/kubeconfig-retention';
import { IDEMPOTENCY_TTL_HOURS } from '../db/idempotency';
import { MAX_NOTIFICATIONS_PER_ORG, NOTIFICATION_RETENTION_DAYS } from '../notifications/retention';
import { MAX_PROJECTS } from '../projects/projects';
import { MAX_ENDPOINTS } from '../webhooks/endpoints';
import { WEBHOOK_EVENT_RETENTION_DAYS } from '../webhooks/retention';
import { pageInput } from './schemas';

const DOC = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');
const start = DOC.indexOf('\n## Page sizes, caps and cleanups');
const SECTION = DOC.slice(start, DOC.indexOf('\n## ', start + 1));
/** The table row whose first cell is `what`. */
const row = (what: string) => SECTION.split('\n').find((l) => l.startsWith(`| ${what} `)) ?? '';

describe('docs/api.md: page sizes, caps and cleanups', () => {
  it('states the page size every list takes', () => {
    expect(start).toBeGreaterThan(0);
    const limit = z.toJSONSchema(pageInput().limit, { io: 'input' }) as {
      minimum: number;
      maximum: number;
      default: number;
    };
    expect(SECTION).toContain(`\`limit\` (${limit.minimum}–${limit.maximum}, default ${limit.default};`);
  });

  it('states each cap and retention the code enforces', () => {
    expect(row('projects')).toContain(`at most ${MAX_PROJECTS} per organization`);
    expect(row('API keys')).toContain(`at most ${MAX_ACTIVE_API_KEYS} unrevoked per organization`);
    expect(row('API keys')).toContain(`deleted ${REVOKED_API_KEY_RETENTION_DAYS} days after revocation`);
    expect(row('kubeconfig credentials')).toContain(`at most ${MAX_ACTIVE_CREDENTIALS} active per cluster`);
    expect(row('kubeconfig credentials')).toContain(
      `deleted ${REVOKED_CREDENTIAL_RETENTION_DAYS} days after revocation`,
    );
    expect(row('notifications')).toContain(
      `kept ${NOTIFICATION_RETENTION_DAYS} days, and each organization's newest ${MAX_NOTIFICATIONS_PER_ORG}`,
    );
    expect(row('idempotency records')).toContain(`kept ${IDEMPOTENCY_TTL_HOURS} hours`);
    expect(row('webhook endpoints')).toContain(`at most ${MAX_ENDPOINTS} per organization`);
    expect(row('webhook events')).toContain(`kept ${WEBHOOK_EVENT_RETENTION_DAYS} days`);
  });
});
