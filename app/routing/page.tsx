// /routing: how the region cascade resolves a request, tried live from a form.
import type { Metadata } from 'next';
import { RoutingInspector } from '~/components/routing/routing-inspector';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Routing' };

export default function RoutingPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Where does a request go?"
        description={
          <>
            Every request resolves its region before any application code runs, by one cascade: subdomain →{' '}
            <code>X-Region</code> → <code>?region=</code> → body <code>region</code> → your project’s default → your
            organization’s default → the resource’s own region → reads fan out, writes must name one. Try it: this form
            runs a server action through the same middleware as the API.
          </>
        }
      />
      <RoutingInspector />
    </div>
  );
}
