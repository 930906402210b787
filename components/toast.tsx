'use client';
// Toasts: short messages in an aria-live region. Errors stay until dismissed and carry the
// request ID (copyable) so a user can quote it to support.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { CopyButton } from './ui/copy-button';
import { focusRingTight } from './ui/styles';

export type ToastKind = 'success' | 'error' | 'info';

export interface ToastInput {
  kind?: ToastKind;
  title: string;
  message?: string;
  requestId?: string;
}

interface Toast extends Required<Pick<ToastInput, 'kind' | 'title'>> {
  id: number;
  message?: string;
  requestId?: string;
}

interface ToastApi {
  toast(t: ToastInput): void;
  dismiss(id: number): void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast() outside <ToastProvider>');
  return api;
}

/** An action or tRPC error in the contract's shape, as a toast. */
export function errorToast(
  title: string,
  error: { message?: string; request_id?: string; code?: string; details?: unknown } | null | undefined,
): ToastInput {
  // Validation errors carry the specifics in `details`: name the first one.
  const first = Array.isArray(error?.details) ? (error.details[0] as { path?: unknown; message?: unknown }) : null;
  const where = Array.isArray(first?.path) ? first.path.join('.') : typeof first?.path === 'string' ? first.path : '';
  const detail = typeof first?.message === 'string' ? `${where ? `${where}: ` : ''}${first.message}` : null;
  return {
    kind: 'error',
    title,
    message: detail ? `${error?.message ?? 'Invalid input'} (${detail})` : error?.message,
    requestId: error?.request_id,
  };
}

/** The contract's error object inside a tRPC client error, if it has one. */
export function trpcErrorBody(e: unknown): { code?: string; message?: string; request_id?: string } {
  const err = e as { message?: string; data?: { error?: { code?: string; message?: string; request_id?: string } } };
  return { message: err?.data?.error?.message ?? err?.message, ...err?.data?.error };
}

const STYLES: Record<ToastKind, string> = {
  success: 'border-emerald-300 dark:border-emerald-800',
  error: 'border-rose-300 dark:border-rose-800',
  info: 'border-slate-300 dark:border-slate-700',
};

const ICONS: Record<ToastKind, ReactNode> = {
  success: (
    <svg aria-hidden viewBox="0 0 20 20" className="h-5 w-5 shrink-0 fill-emerald-500">
      <path d="M10 1.5a8.5 8.5 0 100 17 8.5 8.5 0 000-17zm3.9 6.4l-4.6 5a.75.75 0 01-1.1 0L6.1 10.7a.75.75 0 011.1-1l1.6 1.7 4-4.4a.75.75 0 111.1 1z" />
    </svg>
  ),
  error: (
    <svg aria-hidden viewBox="0 0 20 20" className="h-5 w-5 shrink-0 fill-rose-500">
      <path d="M10 1.5a8.5 8.5 0 100 17 8.5 8.5 0 000-17zM10 5a.9.9 0 01.9.9v4.5a.9.9 0 01-1.8 0V5.9A.9.9 0 0110 5zm0 10a1.1 1.1 0 110-2.2 1.1 1.1 0 010 2.2z" />
    </svg>
  ),
  info: (
    <svg aria-hidden viewBox="0 0 20 20" className="h-5 w-5 shrink-0 fill-sky-500">
      <path d="M10 1.5a8.5 8.5 0 100 17 8.5 8.5 0 000-17zM10 15a.9.9 0 01-.9-.9V9.6a.9.9 0 011.8 0v4.5a.9.9 0 01-.9.9zm0-8a1.1 1.1 0 110-2.2A1.1 1.1 0 0110 7z" />
    </svg>
  ),
};

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  const toast = useCallback(
    (input: ToastInput) => {
      const id = next.current++;
      const kind = input.kind ?? 'info';
      setToasts((ts) => [...ts.slice(-3), { ...input, kind, id }]);
      if (kind !== 'error') setTimeout(() => dismiss(id), 5000);
    },
    [dismiss],
  );
  const api = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);
  const polite = toasts.filter((t) => t.kind !== 'error');
  const urgent = toasts.filter((t) => t.kind === 'error');
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end">
        {/* Two live regions: errors interrupt, the rest wait their turn. Both exist from the first render. */}
        <div aria-live="assertive" role="alert" className="flex w-full flex-col items-center gap-2 sm:items-end">
          {urgent.map((t) => (
            <ToastCard key={t.id} toast={t} onDismiss={() => dismiss(t.id)} />
          ))}
        </div>
        <div aria-live="polite" role="status" className="flex w-full flex-col items-center gap-2 sm:items-end">
          {polite.map((t) => (
            <ToastCard key={t.id} toast={t} onDismiss={() => dismiss(t.id)} />
          ))}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

function ToastCard({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  return (
    <div
      data-testid={`toast-${toast.kind}`}
      className={`pointer-events-auto flex w-full max-w-sm gap-3 rounded-lg border bg-white p-3 text-sm shadow-lg dark:bg-slate-900 ${STYLES[toast.kind]}`}
    >
      {ICONS[toast.kind]}
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-medium">{toast.title}</p>
        {toast.message && <p className="break-words text-slate-600 dark:text-slate-300">{toast.message}</p>}
        {toast.requestId && (
          <div className="space-y-0.5 pt-0.5 text-xs text-slate-500 dark:text-slate-400">
            <p>Request ID (quote it when you contact support)</p>
            <p className="flex items-center gap-1.5">
              <code data-testid="toast-request-id" className="min-w-0 truncate font-mono" title={toast.requestId}>
                {toast.requestId}
              </code>
              <CopyButton value={toast.requestId} label="Copy request ID" compact />
            </p>
          </div>
        )}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss"
        className={`h-6 w-6 shrink-0 rounded text-slate-400 hover:text-slate-700 dark:hover:text-slate-200 ${focusRingTight}`}
      >
        ×
      </button>
    </div>
  );
}
