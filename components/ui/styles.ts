// Class names shared by Arc's forms and panels, so every page looks and focuses alike.
const focus = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500';

export const btnPrimary = `inline-flex items-center justify-center gap-2 rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500 disabled:cursor-not-allowed disabled:opacity-60 ${focus}`;
export const btnSecondary = `inline-flex items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800 ${focus}`;
export const btnDanger = `inline-flex items-center justify-center gap-2 rounded-md bg-rose-600 px-4 py-2 text-sm font-medium text-white hover:bg-rose-500 disabled:cursor-not-allowed disabled:opacity-60 ${focus}`;
export const btnDangerOutline = `inline-flex items-center justify-center gap-2 rounded-md border border-rose-300 px-3 py-2 text-sm font-medium text-rose-700 hover:bg-rose-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-rose-800 dark:text-rose-300 dark:hover:bg-rose-950 ${focus}`;
export const input = `w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 aria-[invalid=true]:border-rose-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 ${focus}`;
export const card = 'rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900';
export const link = `rounded font-medium text-indigo-700 hover:underline dark:text-indigo-300 ${focus}`;
export const focusRing = focus;
