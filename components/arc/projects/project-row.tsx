'use client';
// One project in the list: its name (and whether it is the session's), its default region
// (changeable in place), its ID, its age, the button that makes it the current project, and
// (for members and admins) its delete.
import { CopyButton } from '../../ui/copy-button';
import { RegionOptions } from '../../ui/region-options';
import { btnDangerOutline, btnSecondary, inputInline } from '../../ui/styles';
import { Tag } from '../../ui/tag';
import { TimeAgo } from '../../ui/time-ago';
import type { Project } from './use-projects-cache';

export function ProjectRow({
  project: p,
  current,
  regions,
  orgDefaultRegion,
  switching,
  canSwitch,
  onUse,
  onChangeRegion,
  onDelete,
}: {
  project: Project;
  current: boolean;
  regions: string[];
  orgDefaultRegion: string | null;
  /** Which project is being switched to ('none' while clearing), or null. */
  switching: string | null;
  canSwitch: boolean;
  onUse: (projectId: string | null) => void;
  onChangeRegion: (region: string | null) => void;
  /** Absent for a viewer: they may not delete. */
  onDelete?: () => void;
}) {
  // Not saved yet: shown greyed, without the actions a saved project has.
  const optimistic = p.id.startsWith('optimistic-');
  return (
    <li
      data-testid="project-row"
      aria-busy={optimistic || undefined}
      className={`flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 ${optimistic ? 'opacity-60' : ''}`}
    >
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-mono font-medium">{p.name}</span>
          {current && (
            <Tag tone="indigo" pill>
              Current
            </Tag>
          )}
        </p>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
          {regions.length > 1 && (
            <label className="flex items-center gap-1">
              Default region
              <select
                aria-label={`Default region of ${p.name}`}
                value={p.default_region ?? ''}
                disabled={optimistic}
                onChange={(e) => onChangeRegion(e.target.value || null)}
                className={inputInline}
              >
                <option value="">{orgDefaultRegion ? `${orgDefaultRegion} (organization’s)` : 'none'}</option>
                <RegionOptions regions={regions} />
              </select>
            </label>
          )}
          {!optimistic && (
            <span className="flex items-center gap-1">
              <code className="font-mono">{p.id}</code>
              <CopyButton value={p.id} label={`Copy ID of ${p.name}`} compact />
            </span>
          )}
          <TimeAgo iso={p.created_at} prefix="created " />
        </p>
      </div>
      {!optimistic &&
        (current ? (
          <button
            type="button"
            className={btnSecondary}
            disabled={switching !== null || !canSwitch}
            onClick={() => onUse(null)}
          >
            {switching === 'none' ? 'Clearing…' : 'Stop using'}
          </button>
        ) : (
          <button
            type="button"
            className={btnSecondary}
            disabled={switching !== null || !canSwitch}
            aria-label={`Use project ${p.name}`}
            onClick={() => onUse(p.id)}
          >
            {switching === p.id ? 'Switching…' : 'Use this project'}
          </button>
        ))}
      {!optimistic && onDelete && (
        <button type="button" className={btnDangerOutline} aria-label={`Delete project ${p.name}`} onClick={onDelete}>
          Delete
        </button>
      )}
    </li>
  );
}
