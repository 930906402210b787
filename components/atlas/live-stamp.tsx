// When a live (2 s) view was last updated, and a notice while its last update failed.
import { noticeWarning } from '../ui/styles';

export function LiveStamp({ updatedAt, failed }: { updatedAt: number; failed: boolean }) {
  const updated = new Date(updatedAt).toISOString().slice(11, 19);
  return (
    <>
      <p className="text-xs text-slate-500 dark:text-slate-400" aria-live="off">
        Live: updated {updated} UTC, every 2 s
      </p>
      {failed && (
        <p role="status" className={noticeWarning}>
          The last update failed; showing the state as of {updated} UTC.
        </p>
      )}
    </>
  );
}
