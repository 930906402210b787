'use client';
// What a ConfirmDialog's confirm does: run the server action, close the dialog, and toast the
// refusal or hand on what it answered.
import { useTransition, type RefObject } from 'react';
import type { ActionResult } from '~/server/api/adapters/action';
import { errorToast, useToast } from '../toast';

export function useDialogAction<T>(
  dialog: RefObject<HTMLDialogElement | null>,
  action: () => Promise<ActionResult<T>>,
  { failure, onDone }: { failure: string; onDone: (data: T) => void },
): [busy: boolean, confirm: () => void] {
  const { toast } = useToast();
  const [busy, start] = useTransition();
  const confirm = () =>
    start(async () => {
      const res = await action();
      dialog.current?.close();
      if (!res.ok) {
        toast(errorToast(failure, res.error));
        return;
      }
      onDone(res.data);
    });
  return [busy, confirm];
}
