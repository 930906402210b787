// An error said at once (role="alert"), with the request ID to quote to support when there is one.
import type { ReactNode } from 'react';
import { alertError } from './styles';

export function ErrorAlert({ children, requestId }: { children: ReactNode; requestId?: string }) {
  return (
    <p role="alert" className={alertError}>
      {children}
      {requestId && <span className="ml-2 font-mono text-xs">({requestId})</span>}
    </p>
  );
}
