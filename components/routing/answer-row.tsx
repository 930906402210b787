// One line of the routing inspector's answer: what was decided, and its value.
export function AnswerRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4 border-b border-slate-100 py-1.5 last:border-0 dark:border-slate-800">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd data-testid={testId} className="font-mono text-sm">
        {value}
      </dd>
    </div>
  );
}
