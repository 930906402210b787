// The 403 page (forbidden() in Atlas's layout): Atlas is for operators; Arc is the way on.
import Link from 'next/link';
import { link } from '~/components/ui/styles';

export default function Forbidden() {
  return (
    <div
      role="alert"
      className="mx-auto mt-12 max-w-md space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-6 dark:border-amber-800 dark:bg-amber-950"
    >
      <h1 className="text-lg font-semibold">Atlas is for platform operators</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Your account can&apos;t open this page. Your organization&apos;s clusters and settings are in Arc.
      </p>
      <Link href="/arc" className={`${link} inline-block text-sm`}>
        Go to Arc →
      </Link>
    </div>
  );
}
