'use client';
// A modal confirmation on the native <dialog>, Cancel focused first so Enter never confirms; open
// it with `ref.current.showModal()`, do the work in `onConfirm` (closing it when done).
import type { ReactNode, RefObject } from 'react';
import { btnPrimary, btnSecondary } from './styles';

export function ConfirmDialog({
  ref: dialog,
  id,
  title,
  confirmLabel,
  busy,
  busyLabel = 'Working…',
  cancelLabel = 'Cancel',
  confirmClassName = btnPrimary,
  wide = false,
  onConfirm,
  children,
}: {
  ref: RefObject<HTMLDialogElement | null>;
  /** Names the dialog: its `data-testid`, and its title's id (`<id>-title`). */
  id: string;
  title: ReactNode;
  confirmLabel: string;
  busy: boolean;
  busyLabel?: string;
  cancelLabel?: string;
  /** The confirm button's look (e.g. btnDanger for what can't be undone). */
  confirmClassName?: string;
  /** Room for a table (a diff) rather than a sentence or two. */
  wide?: boolean;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      data-testid={id}
      className={`m-auto w-[calc(100%-2rem)] ${wide ? 'max-w-2xl' : 'max-w-md'} rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100`}
    >
      <form
        method="dialog"
        className="space-y-4 p-5"
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm();
        }}
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        <div className="space-y-2 text-sm text-slate-600 dark:text-slate-300">{children}</div>
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={() => dialog.current?.close()} autoFocus>
            {cancelLabel}
          </button>
          <button type="submit" className={confirmClassName} disabled={busy}>
            {busy ? busyLabel : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
