import { useEffect, useState } from 'react';

export type Theme = 'dark' | 'light';
const storageKey = 'theme';

export function storedTheme(): Theme {
  return localStorage.getItem(storageKey) === 'light' ? 'light' : 'dark';
}

/**
 * Dark by default; the choice is remembered on the device. Only a person's choice is
 * written: a frame that wrote the theme it opened with would undo one another tab made
 * meanwhile (and did, when that came between drawing the frame and its effects).
 */
export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const toggle = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem(storageKey, next);
    setTheme(next);
  };
  return [theme, toggle];
}
