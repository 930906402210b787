'use client';
// An admin deletes their organization: its slug typed to confirm, then read-only at once, its
// clusters deleted, its data purged after 7 days; until then an admin may cancel.
import { useRouter } from 'next/navigation';
import { useRef, useState, useTransition } from 'react';
import { cancelOwnOffboarding, offboardOwnOrganization } from '~/server/api/actions/organization';
import { errorToast, useToast } from '../../toast';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { btnDanger, btnDangerOutline, btnSecondary, noticeDanger, sectionText } from '../../ui/styles';
import { TextField } from '../../ui/text-field';
import { useDialogAction } from '../../ui/use-dialog-action';

const utc = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

export function OffboardOwnOrganization({
  slug,
  status,
  purgeAfter,
}: {
  slug: string;
  status: string;
  purgeAfter: string | null;
}) {
  const router = useRouter();
  const { toast } = useToast();
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const [cancelling, start] = useTransition();
  const [busy, confirm] = useDialogAction(dialog, () => offboardOwnOrganization({ confirm: typed.trim() }), {
    failure: `Could not delete ${slug}`,
    onDone: () => router.refresh(),
  });

  if (status === 'offboarding') {
    return (
      <div className={`${noticeDanger} space-y-2`} data-testid="own-offboarding">
        <p>
          {slug} is being deleted: it is read-only and its clusters are being deleted. Its data is purged after{' '}
          <strong>{purgeAfter ? utc(purgeAfter) : 'the grace period'}</strong>.
        </p>
        <button
          type="button"
          className={btnSecondary}
          disabled={cancelling}
          onClick={() =>
            start(async () => {
              const res = await cancelOwnOffboarding({});
              if (!res.ok) {
                toast(errorToast(`Could not cancel`, res.error));
                return;
              }
              toast({ kind: 'success', title: `${slug} is kept: writable again` });
              router.refresh();
            })
          }
        >
          {cancelling ? 'Cancelling…' : `Keep ${slug}`}
        </button>
      </div>
    );
  }
  if (status !== 'active') return null;
  return (
    <div className="space-y-3">
      <p className={sectionText}>
        Deleting {slug} makes it read-only at once and deletes its clusters; its data is purged after 7 days, and until
        then an admin can keep it. Its audit trail is kept.
      </p>
      <button
        type="button"
        className={btnDangerOutline}
        onClick={() => {
          setTyped('');
          dialog.current?.showModal();
        }}
      >
        Delete {slug}…
      </button>
      <ConfirmDialog
        ref={dialog}
        id="delete-org-dialog"
        title={`Delete ${slug}?`}
        confirmLabel="Delete organization"
        busy={busy}
        busyLabel="Deleting…"
        confirmClassName={btnDanger}
        onConfirm={confirm}
      >
        <p>Everyone in it loses its clusters; after 7 days its projects, keys and settings are gone for good.</p>
        <TextField
          label={`Type ${slug} to confirm`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          inputClassName="font-mono"
        />
      </ConfirmDialog>
    </div>
  );
}
