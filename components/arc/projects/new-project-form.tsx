'use client';
// "New project": a name and, in organizations with several regions, a default region. The new
// project joins the list at once (greyed) and is replaced by the saved one, or removed on error.
import { useRef, useState, useTransition } from 'react';
import { createProject } from '~/server/api/actions/projects';
import { errorToast, useToast } from '../../toast';
import { RegionOptions } from '../../ui/region-options';
import { SelectField } from '../../ui/select-field';
import { btnPrimary, panel } from '../../ui/styles';
import { TextField } from '../../ui/text-field';
import { fieldErrors } from '../action-errors';
import { useProjectsCache, type Project } from './use-projects-cache';

export function NewProjectForm({ regions }: { regions: string[] }) {
  const { toast } = useToast();
  const projects = useProjectsCache();
  const [name, setName] = useState('');
  const [defaultRegion, setDefaultRegion] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [creating, startCreate] = useTransition();
  const optimisticSeq = useRef(0);
  const multiRegion = regions.length > 1;

  const create = (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    const input = { name: name.trim(), ...(multiRegion && defaultRegion ? { default_region: defaultRegion } : {}) };
    const tempId = `optimistic-${++optimisticSeq.current}`;
    const temp: Project = {
      id: tempId,
      name: input.name,
      default_region: input.default_region ?? null,
      created_at: new Date().toISOString(),
    };
    projects.edit((list) => [...list, temp]);
    startCreate(async () => {
      const res = await createProject(input);
      if (res.ok) {
        projects.edit((list) => list.map((p) => (p.id === tempId ? res.data : p)));
        setName('');
        setDefaultRegion('');
        toast({ kind: 'success', title: `Project ${res.data.name} created` });
      } else {
        projects.edit((list) => list.filter((p) => p.id !== tempId));
        setErrors(fieldErrors(res.error));
        toast(errorToast('Could not create the project', res.error));
      }
      await projects.refresh();
    });
  };

  return (
    <form onSubmit={create} noValidate className={`${panel} space-y-4`} aria-labelledby="new-project">
      <h2 id="new-project" className="font-medium">
        New project
      </h2>
      <div className="flex flex-wrap items-start gap-3">
        <TextField
          label="Name"
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={63}
          pattern="[a-z0-9][a-z0-9\-]*"
          placeholder="payments"
          autoComplete="off"
          hint="Lowercase letters, digits and dashes."
          error={errors.name}
          className="w-full sm:w-64"
          inputClassName="font-mono"
        />
        {multiRegion && (
          <SelectField
            label="Default region"
            name="default_region"
            value={defaultRegion}
            onChange={(e) => setDefaultRegion(e.target.value)}
            hint="Where its requests go when they name no region."
            error={errors.default_region}
            className="w-full sm:w-56"
          >
            <option value="">None (ask each time)</option>
            <RegionOptions regions={regions} />
          </SelectField>
        )}
        <button type="submit" disabled={creating || name.trim() === ''} className={`${btnPrimary} sm:mt-6`}>
          {creating ? 'Creating…' : 'Create project'}
        </button>
      </div>
    </form>
  );
}
