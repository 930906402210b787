// The colour theme (`system`, `light`, `dark`), saved in user settings and in localStorage, which
// the root layout's inline script reads before first paint.
export type Theme = 'system' | 'light' | 'dark';

export const THEME_KEY = 'theme';

/** Inline script for <head>: the server's saved theme (if any) wins over localStorage. */
export function themeScript(serverTheme: Theme | null): string {
  return `try{var s=${JSON.stringify(serverTheme)};if(s)localStorage.setItem('${THEME_KEY}',s);var t=localStorage.getItem('${THEME_KEY}');var d=t==='dark'||(t!=='light'&&matchMedia('(prefers-color-scheme: dark)').matches);var c=document.documentElement.classList;c.toggle('dark',d);c.toggle('light',t==='light')}catch(e){}`;
}

/** Applies a theme now and remembers it in this browser. */
export function applyTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    /* storage disabled: the class still applies for this page */
  }
  const dark = theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.classList.toggle('light', theme === 'light');
}

export function storedTheme(): Theme {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}
