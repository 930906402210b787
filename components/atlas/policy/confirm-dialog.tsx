'use client';
// A modal confirmation (native <dialog>: focus trapped, Escape closes) for the editor's publish
// and rollback. The caller opens it with `ref.current.showModal()`.
import type { ReactNode, RefObject } from 'react';
import { btnPrimary, btnSecondary } from '../../ui/styles';

export function ConfirmDialog({
  ref: dialog,
  id,
  title,
  confirmLabel,
  busy,
  onConfirm,
  children,
}: {
  ref: RefObject<HTMLDialogElement | null>;
  id: string;
  title: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      data-testid={id}
      className="m-auto w-[calc(100%-2rem)] max-w-2xl rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
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
        <div className="space-y-3 text-sm text-slate-700 dark:text-slate-300">{children}</div>
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={() => dialog.current?.close()} autoFocus>
            Cancel
          </button>
          <button type="submit" className={btnPrimary} disabled={busy}>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
