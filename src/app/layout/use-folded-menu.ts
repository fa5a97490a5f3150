import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The sidebar folded behind a Menu button (narrow screens). Open, it takes the keyboard
 * (focus moves into it) and closes the way people expect: Escape (focus back to the
 * button), a tap or click anywhere outside it, or choosing one of its links.
 */
export function useFoldedMenu() {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const close = useCallback(() => setOpen(false), []);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (panelRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return { open, toggle: () => setOpen((was) => !was), close, buttonRef, panelRef };
}
