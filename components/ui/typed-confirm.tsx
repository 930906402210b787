'use client';
// What cannot be taken back lightly: a button that opens a dialog whose confirm asks for a word
// typed (an organization's slug), then runs the server action and closes it.
import { useRef, useState, type ReactNode } from 'react';
import type { ActionResult } from '~/server/api/adapters/action';
import { ConfirmDialog } from './confirm-dialog';
import { btnDanger, btnDangerOutline } from './styles';
import { TextField } from './text-field';
import { useDialogAction } from './use-dialog-action';

export function TypedConfirm<T>({
  word,
  trigger,
  id,
  title,
  confirmLabel,
  busyLabel,
  failure,
  action,
  onDone,
  children,
}: {
  /** What must be typed; the action gets what was typed, trimmed (the server checks it too). */
  word: string;
  trigger: string;
  id: string;
  title: string;
  confirmLabel: string;
  busyLabel: string;
  failure: string;
  action: (typed: string) => Promise<ActionResult<T>>;
  onDone: (data: T) => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const [busy, confirm] = useDialogAction(dialog, () => action(typed.trim()), { failure, onDone });
  return (
    <>
      <button
        type="button"
        className={btnDangerOutline}
        onClick={() => {
          setTyped('');
          dialog.current?.showModal();
        }}
      >
        {trigger}
      </button>
      <ConfirmDialog
        ref={dialog}
        id={id}
        title={title}
        confirmLabel={confirmLabel}
        busy={busy}
        busyLabel={busyLabel}
        confirmClassName={btnDanger}
        onConfirm={confirm}
      >
        {children}
        <TextField
          label={`Type ${word} to confirm`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          inputClassName="font-mono"
        />
      </ConfirmDialog>
    </>
  );
}
