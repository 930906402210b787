'use client';
// Keeps the `system` theme in step with the OS while the page is open.
import { useEffect } from 'react';
import { applyTheme, storedTheme } from './theme';

export function ThemeWatcher() {
  useEffect(() => {
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => {
      if (storedTheme() === 'system') applyTheme('system');
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);
  return null;
}
