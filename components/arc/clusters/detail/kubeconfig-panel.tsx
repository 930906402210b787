// A ready cluster's kubeconfig, shown once fetched: copy it, save it again, or hide it.
import { CopyButton } from '../../../ui/copy-button';
import { btnSecondary, panel } from '../../../ui/styles';
import { kubeconfigFilename, saveAsFile } from './use-kubeconfig';

export function KubeconfigPanel({
  clusterName,
  kubeconfig,
  onHide,
}: {
  clusterName: string;
  kubeconfig: string;
  onHide: () => void;
}) {
  const filename = kubeconfigFilename(clusterName);
  return (
    <section className={`${panel} space-y-3`} aria-labelledby="kubeconfig-heading">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="kubeconfig-heading" className="font-medium">
          Kubeconfig
        </h2>
        <div className="flex gap-2">
          <CopyButton value={kubeconfig} label="Copy kubeconfig" className="px-2.5 py-1.5" />
          <button type="button" className={btnSecondary} onClick={() => saveAsFile(filename, kubeconfig)}>
            Save as file
          </button>
          <button type="button" className={btnSecondary} onClick={onHide}>
            Hide
          </button>
        </div>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Treat it like a password: it grants admin access to the cluster. Use it with{' '}
        <code className="font-mono">KUBECONFIG={filename} kubectl get nodes</code>.
      </p>
      <pre
        data-testid="kubeconfig"
        className="max-h-72 overflow-auto rounded-md bg-slate-950 p-3 font-mono text-xs leading-relaxed text-slate-100"
      >
        {kubeconfig}
      </pre>
    </section>
  );
}
