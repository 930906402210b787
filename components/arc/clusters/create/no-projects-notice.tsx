// Shown instead of the create form when the organization has no project to put a cluster in.
import Link from 'next/link';
import { card, link } from '../../../ui/styles';

export function NoProjectsNotice() {
  return (
    <div className={`${card} p-5 text-sm`}>
      A cluster belongs to a project, and your organization has none yet.{' '}
      <Link href="/arc/projects" className={link}>
        Create a project
      </Link>{' '}
      first.
    </div>
  );
}
