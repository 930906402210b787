import type { Metadata } from 'next';
import { NotificationsList } from '~/components/arc/notifications-list';

export const metadata: Metadata = { title: 'Notifications' };

export default function NotificationsPage() {
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Notifications</h1>
        <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-300">
          What happened to your organization’s clusters, newest first.
        </p>
      </header>
      <NotificationsList />
    </div>
  );
}
