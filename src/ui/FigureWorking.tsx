import { useId, useState } from 'react';
import type { ReactNode } from 'react';

/**
 * How a figure was computed, with this month's numbers: shown on hover, on keyboard focus
 * and on a tap of its trigger (dealers define these terms differently, so the working is
 * always one gesture away). Escape, leaving it or focusing elsewhere closes it.
 */
function WorkingPopover({ trigger, label, working, className }: { trigger: ReactNode; label?: string; working: string; className: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <span className="figure-working">
      <button
        type="button"
        className={className}
        aria-label={label}
        aria-expanded={open}
        aria-describedby={open ? id : undefined}
        onMouseEnter={() => setOpen(true)}
        onMouseLeave={() => setOpen(false)}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        // A tap also moves the pointer in and focuses: it only ever opens (a tap elsewhere closes).
        onClick={() => setOpen(true)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        {trigger}
      </button>
      {open ? (
        <span role="tooltip" id={id} className="working">
          {working}
        </span>
      ) : null}
    </span>
  );
}

/** The small "i" beside a tile's title. */
export function FigureWorking({ title, working }: { title: string; working: string }) {
  return <WorkingPopover trigger="i" label={`How ${title} is computed`} working={working} className="working-button" />;
}

/** A computed value in a table, which shows its working when pointed at, focused or tapped. */
export function FigureValue({ text, working }: { text: string; working: string }) {
  return <WorkingPopover trigger={text} working={working} className="figure-value" />;
}
