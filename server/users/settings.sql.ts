// Hand-written SQL of a person's settings (settings.ts).
import { statement } from '../db/sql';

/** The organizations `userId` belongs to (slug, status), their rows held FOR SHARE. */
export const membershipOrgsForShare = statement<{ slug: string; status: string }, [userId: string]>(
  'users.membership_orgs_for_share',
  `SELECT o.slug, o.status::text AS status FROM memberships m JOIN organizations o ON o.id = m.org_id
    WHERE m.user_id = $1::text ORDER BY o.id FOR SHARE OF o`,
  (r) => ({ slug: r.slug as string, status: r.status as string }),
);
