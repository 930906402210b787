'use client';
// The organization's people: members with their roles (admins change and remove them, with a
// confirmation), open invitations (resend, revoke) and the invite form; a new link is shown once.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, useTransition } from 'react';
import type { ErrorBody } from '~/server/errors';
import {
  createInvitation,
  removeMember,
  resendInvitation,
  revokeInvitation,
  setMemberRole,
} from '~/server/api/actions/members';
import { type RouterOutputs, useTRPC } from '../../trpc-provider';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { CopyButton } from '../../ui/copy-button';
import { ErrorAlert } from '../../ui/error-alert';
import { SelectField } from '../../ui/select-field';
import { btnDanger, btnDangerSm, btnPrimary, btnSecondarySm, card, panel } from '../../ui/styles';
import { Tag } from '../../ui/tag';
import { TextField } from '../../ui/text-field';

type Member = RouterOutputs['members']['list']['data'][number];
type Role = Member['role'];
type ActionError = ErrorBody['error'];

const ROLES: { value: Role; label: string }[] = [
  { value: 'viewer', label: 'Viewer (read only)' },
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
];
const roleTone = (role: string) => (role === 'admin' ? 'indigo' : role === 'viewer' ? 'slate' : 'violet');

export function MembersManager({ isAdmin, meId }: { isAdmin: boolean; meId: string | null }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const members = useQuery(trpc.members.list.queryOptions({ limit: 200 }));
  const invitations = useQuery({ ...trpc.invitations.list.queryOptions({ limit: 200 }), enabled: isAdmin });
  const [error, setError] = useState<ActionError | null>(null);
  const [newLink, setNewLink] = useState<{ email: string; link: string; delivery: string } | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [busy, startBusy] = useTransition();
  const dialog = useRef<HTMLDialogElement>(null);
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries(trpc.members.list.pathFilter()),
      qc.invalidateQueries(trpc.invitations.list.pathFilter()),
    ]);

  const rows = [...(members.data?.data ?? [])].sort((a, b) => a.email.localeCompare(b.email));
  const admins = rows.filter((m) => m.role === 'admin').length;

  const run = <T,>(
    act: () => Promise<{ ok: true; data: T } | { ok: false; error: ActionError }>,
    then?: (d: T) => void,
  ) =>
    startBusy(async () => {
      setError(null);
      const res = await act();
      if (!res.ok) setError(res.error);
      else then?.(res.data);
      await refresh();
    });

  return (
    <div className="space-y-8">
      {isAdmin && (
        <InviteForm
          pending={busy}
          onInvite={(email, role) =>
            run(
              () => createInvitation({ email, role }),
              (d) => setNewLink({ email: d.email, link: d.link, delivery: d.delivery }),
            )
          }
        />
      )}
      {newLink && (
        <div
          role="status"
          className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-800 dark:bg-emerald-950"
        >
          <p className="text-sm font-medium">
            Invitation link for {newLink.email}
            {newLink.delivery === 'sent' ? ' (also sent by email)' : ''}. Copy it now: it will not be shown again.
          </p>
          <div className="flex items-center gap-2">
            <code
              data-testid="invite-link"
              className="break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-slate-900"
            >
              {newLink.link}
            </code>
            <CopyButton value={newLink.link} label="Copy invitation link" />
          </div>
        </div>
      )}
      {error && <ErrorAlert requestId={error.request_id}>{error.message}</ErrorAlert>}

      <section aria-labelledby="members-heading" className="space-y-3">
        <h2 id="members-heading" className="text-lg font-semibold">
          Members <span className="text-sm font-normal text-slate-500">({rows.length})</span>
        </h2>
        {isAdmin && admins === 1 && (
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="last-admin-note">
            An organization always keeps at least one admin: make someone else an admin before the last one changes role
            or leaves.
          </p>
        )}
        {!isAdmin && (
          <p className="text-sm text-slate-600 dark:text-slate-300">Only admins change roles and invite people.</p>
        )}
        <ul className={`${card} divide-y divide-slate-100 dark:divide-slate-800`} aria-label="Members">
          {members.isLoading && <li className="px-4 py-3 text-sm">Loading…</li>}
          {rows.map((m) => {
            const lastAdmin = m.role === 'admin' && admins === 1;
            return (
              <li
                key={m.user_id}
                className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
                data-testid="member-row"
              >
                <div className="min-w-0 grow basis-full sm:basis-0">
                  <p className="truncate text-sm font-medium">
                    {m.name || m.email}
                    {m.user_id === meId && <span className="ml-1.5 text-xs text-slate-500">(you)</span>}
                  </p>
                  <p className="truncate text-xs text-slate-600 dark:text-slate-400">{m.email}</p>
                </div>
                {isAdmin ? (
                  <SelectField
                    label={`Role of ${m.email}`}
                    compact
                    value={m.role}
                    disabled={busy || lastAdmin}
                    hint={lastAdmin ? 'the last admin' : undefined}
                    className="w-44"
                    onChange={(e) => run(() => setMemberRole({ user_id: m.user_id, role: e.target.value as Role }))}
                  >
                    {ROLES.map((r) => (
                      <option key={r.value} value={r.value}>
                        {r.label}
                      </option>
                    ))}
                  </SelectField>
                ) : (
                  <Tag tone={roleTone(m.role)} pill>
                    {m.role}
                  </Tag>
                )}
                {isAdmin && (
                  <button
                    type="button"
                    className={btnDangerSm}
                    disabled={busy || lastAdmin}
                    title={lastAdmin ? 'The last admin cannot be removed' : undefined}
                    aria-label={`Remove ${m.email}`}
                    onClick={() => {
                      setRemoving(m);
                      dialog.current?.showModal();
                    }}
                  >
                    Remove
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      {isAdmin && (
        <section aria-labelledby="invitations-heading" className="space-y-3">
          <h2 id="invitations-heading" className="text-lg font-semibold">
            Pending invitations{' '}
            <span className="text-sm font-normal text-slate-500">({invitations.data?.data.length ?? 0})</span>
          </h2>
          <ul className={`${card} divide-y divide-slate-100 dark:divide-slate-800`} aria-label="Pending invitations">
            {invitations.data?.data.length === 0 && (
              <li className="px-4 py-3 text-sm text-slate-600 dark:text-slate-400">No pending invitations.</li>
            )}
            {invitations.data?.data.map((i) => (
              <li
                key={i.id}
                className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
                data-testid="invitation-row"
              >
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{i.email}</p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {i.role} · {i.status === 'expired' ? 'expired' : `expires ${i.expires_at.slice(0, 10)}`}
                  </p>
                </div>
                <button
                  type="button"
                  className={btnSecondarySm}
                  disabled={busy}
                  aria-label={`Resend the invitation to ${i.email}`}
                  onClick={() =>
                    run(
                      () => resendInvitation({ id: i.id }),
                      (d) => setNewLink({ email: d.email, link: d.link, delivery: d.delivery }),
                    )
                  }
                >
                  Resend
                </button>
                <button
                  type="button"
                  className={btnDangerSm}
                  disabled={busy}
                  aria-label={`Revoke the invitation to ${i.email}`}
                  onClick={() => run(() => revokeInvitation({ id: i.id }))}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      <ConfirmDialog
        ref={dialog}
        id="remove-member"
        title={`Remove ${removing?.email ?? ''}?`}
        confirmLabel="Remove"
        busy={busy}
        busyLabel="Removing…"
        confirmClassName={btnDanger}
        onConfirm={() =>
          removing &&
          run(
            () => removeMember({ user_id: removing.user_id }),
            () => dialog.current?.close(),
          )
        }
      >
        <p className="text-sm">
          They lose access at once: every session of theirs ends and the API keys they created here are revoked. Their
          memberships of other organizations stay (they sign in again).
        </p>
      </ConfirmDialog>
    </div>
  );
}

function InviteForm({ pending, onInvite }: { pending: boolean; onInvite: (email: string, role: Role) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  return (
    <form
      className={`${panel} flex flex-wrap items-end gap-3`}
      aria-label="Invite someone"
      onSubmit={(e) => {
        e.preventDefault();
        onInvite(email, role);
        setEmail('');
      }}
    >
      <TextField
        label="Email"
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
        maxLength={254}
        placeholder="name@example.com"
        className="w-full sm:w-72"
      />
      <SelectField
        label="Role"
        value={role}
        onChange={(e) => setRole(e.target.value as Role)}
        className="w-full sm:w-56"
      >
        {ROLES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </SelectField>
      <button type="submit" disabled={pending} className={btnPrimary}>
        {pending ? 'Inviting…' : 'Invite'}
      </button>
    </form>
  );
}
