'use client';
// An admin deletes their organization: its slug typed to confirm, then read-only at once, its
// clusters deleted, its data purged after 7 days; until then an admin may cancel.
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { cancelOwnOffboarding, offboardOwnOrganization } from '~/server/api/actions/organization';
import { minuteUtc } from '../../format';
import { errorToast, useToast } from '../../toast';
import { btnSecondary, noticeDanger, sectionText } from '../../ui/styles';
import { TypedConfirm } from '../../ui/typed-confirm';

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
  const [cancelling, start] = useTransition();

  if (status === 'offboarding') {
    return (
      <div className={`${noticeDanger} space-y-2`} data-testid="own-offboarding">
        <p>
          {slug} is being deleted: it is read-only and its clusters are being deleted. Its data is purged after{' '}
          <strong>{purgeAfter ? minuteUtc(purgeAfter) : 'the grace period'}</strong>.
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
      <TypedConfirm
        word={slug}
        trigger={`Delete ${slug}…`}
        id="delete-org-dialog"
        title={`Delete ${slug}?`}
        confirmLabel="Delete organization"
        busyLabel="Deleting…"
        failure={`Could not delete ${slug}`}
        action={(confirm) => offboardOwnOrganization({ confirm })}
        onDone={() => router.refresh()}
      >
        <p>Everyone in it loses its clusters; after 7 days its projects, keys and settings are gone for good.</p>
      </TypedConfirm>
    </div>
  );
}
