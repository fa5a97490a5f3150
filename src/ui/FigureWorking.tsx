import { useId, useState } from 'react';

/**
 * How a figure was computed, with this month's numbers: shown on hover, on keyboard focus
 * and on a tap of the small button beside the figure (dealers define these terms
 * differently, so the working is always one gesture away). Escape closes it.
 */
export function FigureWorking({ title, working }: { title: string; working: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <span className="figure-working">
      <button
        type="button"
        className="working-button"
        aria-label={`How ${title} is computed`}
        aria-expanded={open}
        aria-describedby={open ? id : undefined}
        onMouseEnter={() => setOpen(true)}
        onMouseLeave={() => setOpen(false)}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        i
      </button>
      {open ? (
        <span role="tooltip" id={id} className="working">
          {working}
        </span>
      ) : null}
    </span>
  );
}
