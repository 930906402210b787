import type { Metadata } from 'next';
import { RoutingInspector } from '~/components/routing-inspector';

export const metadata: Metadata = { title: 'Routing' };

export default function RoutingPage() {
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Where does a request go?</h1>
        <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-300">
          Every request resolves its region before any application code runs, by one cascade: subdomain →{' '}
          <code>X-Region</code> → <code>?region=</code> → body <code>region</code> → your project’s default → your
          organization’s default → the resource’s own region → reads fan out, writes must name one. Try it: this form
          runs a server action through the same middleware as the API.
        </p>
      </header>
      <RoutingInspector />
    </div>
  );
}
