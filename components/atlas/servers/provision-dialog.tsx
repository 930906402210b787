'use client';
// The confirmation before provisioning a server (opened by the page's "Provision" button). On
// confirm the server action starts the provision-server run and the page follows it (onStarted).
import type { RefObject } from 'react';
import { provisionServer } from '~/server/api/actions/atlas/servers';
import { useToast } from '../../toast';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useDialogAction } from '../../ui/use-dialog-action';
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
  const [starting, confirm] = useDialogAction(dialog, () => provisionServer({ id: s.id }), {
    failure: `Could not provision ${shortHost(s.hostname)}`,
    onDone: (data) => {
      onStarted(data.run_id);
      toast({ kind: 'info', title: `Provisioning ${shortHost(s.hostname)}`, message: `Run ${data.run_id}` });
    },
  });

  return (
    <ConfirmDialog
      ref={dialog}
      id="provision-dialog"
      title={`Provision ${shortHost(s.hostname)}?`}
      confirmLabel="Provision"
      busy={starting}
      busyLabel="Starting…"
      onConfirm={confirm}
    >
      <p>
        <span className="font-mono">{s.region}</span>’s worker powers it on, updates its firmware, installs the node
        image, burns it in and returns it to the pool as available.
      </p>
      <p>
        Whatever is on its disks is wiped. It is out of the pool (no cluster can take it) until the run ends; the audit
        log records who asked.
      </p>
    </ConfirmDialog>
  );
}
