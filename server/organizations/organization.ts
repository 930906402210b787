// The caller's organization as its members see it (GET /v1/organization).
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { organizationView } from './repository';

export async function organizationOf(req: DataRequest, orgId: string) {
  const view = await read(req, (db) => organizationView(db, orgId));
  if (!view) throw new AppError('not_found', 'your organization no longer exists');
  return view;
}
