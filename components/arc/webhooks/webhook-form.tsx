'use client';
// The form that adds a webhook endpoint: its URL, a description and the events it hears.
import { useState } from 'react';
import { btnPrimary, fieldLabel, panel } from '../../ui/styles';
import { TextField } from '../../ui/text-field';

const EVENT_TYPES = [
  'cluster.created',
  'cluster.ready',
  'cluster.failed',
  'cluster.deleted',
  'api_key.created',
  'api_key.revoked',
  'member.added',
  'member.removed',
  'project.created',
  'project.deleted',
] as const;
type EventType = (typeof EVENT_TYPES)[number];

export interface NewWebhook {
  url: string;
  description: string;
  event_types: EventType[];
}

/** `onAdd` resolves true once the endpoint exists; the form then clears its URL and description. */
export function WebhookForm({ busy, onAdd }: { busy: boolean; onAdd: (input: NewWebhook) => Promise<boolean> }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<EventType[]>(['cluster.ready', 'cluster.failed']);

  return (
    <form
      className={`${panel} space-y-4`}
      onSubmit={(ev) => {
        ev.preventDefault();
        void onAdd({ url, description, event_types: types }).then((added) => {
          if (!added) return;
          setUrl('');
          setDescription('');
        });
      }}
    >
      <div className="flex flex-wrap gap-3">
        <TextField
          label="Endpoint URL"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          required
          maxLength={2000}
          placeholder="https://hooks.example.com/meridian"
          className="w-full sm:w-96"
        />
        <TextField
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          maxLength={200}
          placeholder="deploy bot"
          className="w-full sm:w-64"
        />
      </div>
      <fieldset>
        <legend className={fieldLabel}>Events</legend>
        <div className="mt-2 grid grid-cols-1 gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {EVENT_TYPES.map((t) => (
            <label key={t} className="flex items-center gap-2 font-mono text-sm">
              <input
                type="checkbox"
                checked={types.includes(t)}
                onChange={(e) => setTypes(e.target.checked ? [...types, t] : types.filter((x) => x !== t))}
              />
              {t}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={busy || types.length === 0} className={btnPrimary}>
        Add endpoint
      </button>
    </form>
  );
}
