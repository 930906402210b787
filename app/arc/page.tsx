import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Arc' };

const AREAS = [
  { name: 'Clusters', text: 'Create, watch and delete Kubernetes clusters in your regions.' },
  { name: 'Projects', text: 'Group clusters and set a default region per project.' },
  { name: 'Notifications', text: 'Know when a cluster is ready or a run fails.' },
  { name: 'Settings & API keys', text: 'Your defaults, theme and region-bound API keys.' },
];

export default function ArcHome() {
  return (
    <div className="space-y-6">
      <header>
        <p className="text-sm font-medium text-indigo-600 dark:text-indigo-400">Arc</p>
        <h1 className="text-2xl font-semibold tracking-tight">Your organization&apos;s infrastructure</h1>
      </header>
      <ul className="grid gap-4 sm:grid-cols-2">
        {AREAS.map((a) => (
          <li
            key={a.name}
            className="rounded-lg border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
          >
            <h2 className="font-medium">{a.name}</h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{a.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
