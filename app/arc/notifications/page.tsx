// /arc/notifications: what happened to the organization's clusters.
import type { Metadata } from 'next';
import { NotificationsList } from '~/components/arc/notifications/notifications-list';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Notifications' };

export default function NotificationsPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Notifications" description="What happened to your organization’s clusters, newest first." />
      <NotificationsList />
    </div>
  );
}
