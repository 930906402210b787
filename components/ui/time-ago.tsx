// "3 minutes ago", with the exact UTC time on hover.
import { fullDate, timeAgo } from '../format';

export function TimeAgo({ iso, prefix = '', className }: { iso: string; prefix?: string; className?: string }) {
  return (
    <span title={fullDate(iso)} className={className}>
      {prefix}
      {timeAgo(iso)}
    </span>
  );
}
