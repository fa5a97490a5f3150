import { memo, useId, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { NumberLimit } from '../domain/limits.ts';
import type { CellStep, CellTyping } from './cell-edit.ts';
import { escaped, left, showsSaved, typed, writeFailed } from './cell-edit.ts';
import type { Direction } from './grid-navigation.ts';
import { moveSpatially, moveToNext } from './grid-navigation.ts';

/** What a cell shows that changes with the month it shows: its name, its value, whether that value waits for "Submit Data". */
export type CellShown = { label: string; value: number | null; unsubmitted: boolean };

type ShowChange = (before: CellShown, next: CellShown) => void;

/**
 * What a cell that a grid keeps across months (KeptCell) shows: the grid writes the
 * month's label and value here, and the cell writes them straight into its input, without
 * drawing again. Only a cell with something of its own on screen (an entry being typed
 * or refused, the "saved" sign, an unsubmitted mark) draws again.
 */
export class CellSlot {
  private change: ShowChange | null = null;
  constructor(private current: CellShown) {}

  get shown(): CellShown {
    return this.current;
  }

  /** The grid: what the cell is to show from now on. */
  write(next: CellShown): void {
    const before = this.current;
    if (before.label === next.label && before.value === next.value && before.unsubmitted === next.unsubmitted) return;
    this.current = next;
    this.change?.(before, next);
  }

  /** The cell, while it is on the page: how it shows a change. Returns the way to let go. */
  attach(change: ShowChange): () => void {
    this.change = change;
    return () => {
      if (this.change === change) this.change = null;
    };
  }
}

type Shown =
  /** `unsubmitted`: typed in Submit mode and not submitted yet: marked, and described as such to screen readers. */
  | { label: string; value: number | null; unsubmitted?: boolean; slot?: undefined }
  /** A kept cell: what it shows comes from the slot (see KeptCell). */
  | { slot: CellSlot; label?: undefined; value?: undefined; unsubmitted?: undefined };

type Props = Shown & {
  /** What the field may hold (src/domain/limits.ts); anything else is refused at the cell. */
  limit: NumberLimit;
  disabled?: boolean;
  /** Grid position (kept on the input for tests and styling); arrows move by what is on screen. */
  row: number;
  column: number;
  /** Reading order within the grid: Enter moves to the next. */
  order?: number;
  /** Bigger input for the Today view. */
  className?: string;
  /** Shown greyed while the cell is empty: the value that applies when nothing is entered. */
  placeholder?: string;
  /** The stored field behind the cell, for "History of ..." (kept on the input as data-history). */
  history?: { table: string; key: Record<string, unknown>; field: string };
  /** Not on screen (a kept cell of a day outside the month): hidden, and never focused. */
  hidden?: boolean;
  /** Whether a value once stored is signed "saved on this device" (not where values wait for "Submit Data"). */
  signSaved?: boolean;
  /**
   * Called, in the input event itself, with each valid value typed that differs from the
   * last one (null when emptied), and with the value from before typing when the entry is
   * refused or abandoned (Escape): see cell-edit.ts. When it returns a promise that fails
   * (the device could not store the value), the cell keeps what was typed, marked, with
   * the reason: a value is never dropped without a word. `seen`: the value the cell showed
   * when the person started typing, the edit's base (see RowWrite in local-writes.ts).
   */
  onCommit(value: number | null, seen: number | null): void | Promise<unknown>;
};

const arrows: Partial<Record<string, Direction>> = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

const shown = (value: number | null) => (value === null ? '' : String(value));

/**
 * A number input in a grid: stores what is typed as it is typed (never on focus alone,
 * never on the scroll wheel), moves by keyboard. A value outside the field's limit is not
 * stored: leaving the cell keeps what was typed so it can be corrected, marks it invalid,
 * and says why (announced as an alert); so does a value the device failed to store.
 * Escape goes back to the value shown before typing. A value the device stored is signed
 * so (a check mark, "saved on this device") until the next keystroke.
 */
export function NumberCell(props: Props) {
  const { limit, disabled, row, column, order, className = 'cell', placeholder, history, hidden, signSaved = true, onCommit, slot } = props;
  // What the cell shows now: a kept cell's may have been written into its input since it last drew.
  const current = (): CellShown => (slot ? slot.shown : { label: props.label, value: props.value, unsubmitted: props.unsubmitted === true });
  const { label, value, unsubmitted } = current();
  // What the person is typing, while the cell has focus or holds a refused entry; otherwise
  // the cell shows its value. Cells are reused across months (keyed by position), so what
  // was typed belongs to the cell's label: an entry typed for one date never shows under
  // another (and the cells of a month switch render once, with no state to reset).
  const [typing, setTyping] = useState<CellTyping | null>(null);
  const mine = typing?.label === label ? typing : null;
  const draft = mine?.draft ?? null;
  const error = mine?.error ?? null;
  const messageId = useId();
  const draftNoteId = useId();
  // The label of the cell whose newest write reached the device: it signs "saved on this device" until the next keystroke.
  const [stored, setStored] = useState<string | null>(null);
  // A value held for "Submit Data" is marked unsubmitted instead: it is not saved for the server yet.
  const saved = signSaved && !unsubmitted && showsSaved(mine, stored === label, limit);
  const savedId = useId();
  const describedBy = [error ? messageId : '', unsubmitted ? draftNoteId : '', saved ? savedId : ''].filter(Boolean).join(' ');
  // Only the newest write's failure marks the cell: an older one was superseded by it.
  const writes = useRef(0);
  const input = useRef<HTMLInputElement>(null);
  const [, redraw] = useReducer((count: number) => count + 1, 0);
  // The cell's own state as last drawn, for the slot's writer (which runs outside a render).
  const own = useRef({ typing, stored });
  useLayoutEffect(() => {
    own.current = { typing, stored };
  });
  useLayoutEffect(
    () =>
      slot?.attach((before, next) => {
        const element = input.current;
        const { typing: typed, stored: signed } = own.current;
        const mark = (shownLabel: string) => typed?.label === shownLabel || signed === shownLabel;
        // Nothing of the cell's own on screen before or after: the label and value are all that change.
        if (element && !before.unsubmitted && !next.unsubmitted && !mark(before.label) && !mark(next.label)) {
          element.setAttribute('aria-label', next.label);
          element.value = shown(next.value);
        } else redraw();
      }),
    [slot],
  );

  /** The cell's typing state for what it shows now (a kept cell's label may have changed since it drew). */
  const mineNow = () => {
    const now = current();
    return { now, mine: typing?.label === now.label ? typing : null };
  };

  /** Applies a step: the write starts here, synchronously, in the event that asked for it. */
  function apply(step: CellStep) {
    const { now, mine } = mineNow();
    setTyping(step.next);
    if (!step.write) return;
    const number = (writes.current += 1);
    const text = step.next?.draft ?? mine?.draft ?? shown(step.write.value);
    const seen = step.next?.seen ?? mine?.seen ?? now.value;
    const { label } = now;
    // No promise (Submit mode holds the value until "Submit Data"): nothing stored, no sign.
    void onCommit(step.write.value, seen)?.then(
      () => {
        if (number === writes.current) setStored(label);
      },
      (failure: unknown) => {
        if (number !== writes.current) return;
        const reason = failure instanceof Error ? failure.message : String(failure);
        setTyping((now) => writeFailed(now?.label === label ? now : null, label, seen, text, reason));
      },
    );
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const { mine } = mineNow();
    if (event.key === 'Escape' && mine?.draft != null) {
      apply(escaped(mine));
      return;
    }
    const input = event.currentTarget;
    if (event.key === 'Enter') {
      event.preventDefault();
      return moveToNext(input, event.shiftKey);
    }
    const direction: Direction | undefined = arrows[event.key];
    if (!direction) return;
    // Left/right move between cells only at the ends of the text, so editing still works.
    if (direction === 'left' && input.selectionStart !== 0) return;
    if (direction === 'right' && input.selectionEnd !== input.value.length) return;
    event.preventDefault();
    moveSpatially(input, direction);
  }

  return (
    <span className="cell-field" hidden={hidden}>
      <input
        ref={input}
        className={unsubmitted ? `${className} unsubmitted` : className}
        type="text"
        inputMode="decimal"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        value={draft ?? shown(value)}
        placeholder={placeholder}
        disabled={disabled}
        data-row={row}
        data-column={column}
        data-order={order}
        data-history={history ? JSON.stringify(history) : undefined}
        onChange={(event) => {
          const { now, mine } = mineNow();
          setStored(null);
          apply(typed(mine, now.label, now.value, event.target.value, limit));
        }}
        onBlur={() => apply(left(mineNow().mine, limit))}
        onKeyDown={onKeyDown}
        onWheel={(event) => event.currentTarget.blur()}
      />
      {unsubmitted ? (
        <span id={draftNoteId} className="visually-hidden">
          not submitted
        </span>
      ) : null}
      {saved ? (
        <span className="cell-saved" title="saved on this device">
          <span aria-hidden="true">✓</span>
          <span id={savedId} className="visually-hidden">
            saved on this device
          </span>
        </span>
      ) : null}
      {error ? (
        <span id={messageId} role="alert" className="cell-error">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/**
 * A cell a grid keeps across months: drawn again only when its position's own props change
 * (its limit, whether it is enabled or hidden), never for a new month; the grid writes the
 * month's label and value into its slot (see CellSlot). `onCommit` must be stable.
 */
export const KeptCell = memo(function KeptCell(props: Omit<Props, keyof Shown> & { slot: CellSlot }) {
  return <NumberCell {...props} />;
});
