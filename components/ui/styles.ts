// Class names shared by every page's buttons, forms and panels, so the console looks and
// focuses alike everywhere. Components compose these instead of spelling the utilities again.
const focus = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500';
const btn = `inline-flex items-center justify-center gap-2 rounded-md text-sm font-medium disabled:cursor-not-allowed disabled:opacity-60 ${focus}`;
// Row-level buttons (mark read, revoke) sit beside text, so they are smaller.
const btnSm = `inline-flex h-fit shrink-0 items-center justify-center gap-1 rounded-md border px-2 py-1 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-60 ${focus}`;

export const btnPrimary = `${btn} bg-indigo-600 px-4 py-2 text-white hover:bg-indigo-700`;
export const btnSecondary = `${btn} border border-slate-300 bg-white px-3 py-2 text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800`;
export const btnDanger = `${btn} bg-rose-600 px-4 py-2 text-white hover:bg-rose-700`;
export const btnDangerOutline = `${btn} border border-rose-300 px-3 py-2 text-rose-700 hover:bg-rose-50 dark:border-rose-800 dark:text-rose-300 dark:hover:bg-rose-950`;
export const btnSecondarySm = `${btnSm} border-slate-300 text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800`;
export const btnDangerSm = `${btnSm} border-rose-300 text-rose-700 hover:bg-rose-50 dark:border-rose-800 dark:text-rose-300 dark:hover:bg-rose-950`;

export const input = `w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 aria-[invalid=true]:border-rose-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 ${focus}`;
/** A control inside a line of text (a list row's own setting). */
export const inputInline = `rounded border border-slate-300 bg-white px-1 py-0.5 font-mono text-xs dark:border-slate-700 dark:bg-slate-900 ${focus}`;
export const fieldLabel = 'block text-sm font-medium';
/** Labels of filters in a toolbar: quieter than a form's. */
export const fieldLabelCompact = 'block text-xs font-medium text-slate-600 dark:text-slate-400';
export const fieldHint = 'block text-xs text-slate-500 dark:text-slate-400';
export const fieldError = 'block text-xs text-rose-600 dark:text-rose-400';

export const card = 'rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900';
/** A card with room inside: forms and sections. */
export const panel = `${card} p-4 sm:p-5`;
/** The body of a section under its heading. */
export const sectionText = 'text-sm text-slate-600 dark:text-slate-400';
export const alertError = 'rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700 dark:bg-rose-950 dark:text-rose-300';
export const noticeWarning =
  'rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-200';
export const noticeDanger =
  'rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200';

export const link = `rounded font-medium text-indigo-700 hover:underline dark:text-indigo-300 ${focus}`;
export const focusRing = focus;
/** For small controls packed in a row or a scrolling strip, where a wider ring would be clipped. */
export const focusRingTight = 'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500';
