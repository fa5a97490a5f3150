import { useEffect, useState } from 'react';

export type Theme = 'dark' | 'light';
const storageKey = 'theme';

export function storedTheme(): Theme {
  return localStorage.getItem(storageKey) === 'light' ? 'light' : 'dark';
}

/** Dark by default; the choice is remembered on the device. */
export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem(storageKey, theme);
  }, [theme]);
  return [theme, () => setTheme(theme === 'dark' ? 'light' : 'dark')];
}
