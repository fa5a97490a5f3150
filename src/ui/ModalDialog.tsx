import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';

/** A modal dialog named by its heading; Escape (the browser's cancel) closes it. */
export function ModalDialog({ title, onClose, children, className }: { title: string; onClose(): void; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    ref.current?.showModal?.();
  }, []);
  return (
    <dialog ref={ref} className={className ? `card ${className}` : 'card'} aria-labelledby={titleId} onCancel={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
