'use client';
// The confirmation before provisioning a server (opened by the page's "Provision" button). On
// confirm the server action starts the provision-server run and the page follows it (onStarted).
import { useTransition, type RefObject } from 'react';
import { provisionServer } from '~/app/atlas/servers/actions';
import { errorToast, useToast } from '../../toast';
import { btnPrimary, btnSecondary } from '../../ui/styles';
import { shortHost } from './server-table';

export function ProvisionDialog({
  ref: dialog,
  server: s,
  onStarted,
}: {
  ref: RefObject<HTMLDialogElement | null>;
  server: { id: string; hostname: string; region: string; status: string };
  onStarted: (runId: string) => void;
}) {
  const { toast } = useToast();
  const [starting, start] = useTransition();

  const confirm = () =>
    start(async () => {
      const res = await provisionServer({ id: s.id });
      dialog.current?.close();
      if (!res.ok) {
        toast(errorToast(`Could not provision ${shortHost(s.hostname)}`, res.error));
        return;
      }
      onStarted(res.data.run_id);
      toast({ kind: 'info', title: `Provisioning ${shortHost(s.hostname)}`, message: `Run ${res.data.run_id}` });
    });

  return (
    <dialog
      ref={dialog}
      aria-labelledby="provision-title"
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <form
        method="dialog"
        className="space-y-4 p-5"
        onSubmit={(e) => {
          e.preventDefault();
          confirm();
        }}
      >
        <h2 id="provision-title" className="text-lg font-semibold">
          Provision {shortHost(s.hostname)}?
        </h2>
        <div className="space-y-2 text-sm text-slate-600 dark:text-slate-300">
          <p>
            <span className="font-mono">{s.region}</span>’s worker powers it on, updates its firmware, installs the node
            image, burns it in and returns it to the pool as available.
          </p>
          <p>
            Whatever is on its disks is wiped. It is out of the pool (no cluster can take it) until the run ends; the
            audit log records who asked.
          </p>
        </div>
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={() => dialog.current?.close()} autoFocus>
            Cancel
          </button>
          <button type="submit" className={btnPrimary} disabled={starting}>
            {starting ? 'Starting…' : 'Provision'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
