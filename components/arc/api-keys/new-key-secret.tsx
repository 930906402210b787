// A new API key's secret, shown once right after it is created.
import { CopyButton } from '../../ui/copy-button';

export function NewKeySecret({ secret }: { secret: string }) {
  return (
    <div
      role="status"
      className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-800 dark:bg-emerald-950"
    >
      <p className="text-sm font-medium">Copy this key now: it will not be shown again.</p>
      <div className="flex items-center gap-2">
        <code
          data-testid="new-key"
          className="break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-slate-900"
        >
          {secret}
        </code>
        <CopyButton value={secret} />
      </div>
    </div>
  );
}
