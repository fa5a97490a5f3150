import { useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { NumberLimit } from '../domain/limits.ts';
import { parseNumberInput } from '../domain/number-input.ts';

type Props = {
  label: string;
  value: number | null;
  /** What the field may hold (src/domain/limits.ts); anything else is refused at the cell. */
  limit: NumberLimit;
  disabled?: boolean;
  /** Grid position, for arrow-key and Enter navigation between cells. */
  row: number;
  column: number;
  /** Called on leaving the cell with a changed, valid value (null when emptied). */
  onCommit(value: number | null): void;
};

const shown = (value: number | null) => (value === null ? '' : String(value));

/** Moves focus to the cell `by` rows/columns away, if there is one. */
function moveFocus(from: HTMLInputElement, rowBy: number, columnBy: number) {
  const grid = from.closest('[data-grid]');
  const row = Number(from.dataset.row) + rowBy;
  const column = Number(from.dataset.column) + columnBy;
  const next = grid?.querySelector<HTMLInputElement>(`input[data-row="${row}"][data-column="${column}"]:not(:disabled)`);
  next?.focus();
  next?.select();
}

/**
 * A number input in a grid: commits on blur, never on the scroll wheel, moves by keyboard.
 * A value outside the field's limit is not committed: the cell keeps what was typed so it
 * can be corrected, is marked invalid, and says why (announced as an alert); Escape goes
 * back to the stored value.
 */
export function NumberCell({ label, value, limit, disabled, row, column, onCommit }: Props) {
  // What the person is typing, while the cell has focus or holds a refused entry; otherwise the cell shows its value.
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const messageId = useId();

  function commit() {
    if (draft === null) return;
    const parsed = parseNumberInput(draft, limit, label);
    if (!parsed.ok) return setError(parsed.message);
    setDraft(null);
    setError(null);
    if (parsed.value !== value) onCommit(parsed.value);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape' && draft !== null) {
      setDraft(null);
      setError(null);
      return;
    }
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], Enter: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[event.key];
    if (!move) return;
    // Left/right move between cells only at the ends of the text, so editing still works.
    const input = event.currentTarget;
    if (event.key === 'ArrowLeft' && input.selectionStart !== 0) return;
    if (event.key === 'ArrowRight' && input.selectionEnd !== input.value.length) return;
    event.preventDefault();
    moveFocus(input, move[0], move[1]);
  }

  return (
    <span className="cell-field">
      <input
        className="cell"
        type="text"
        inputMode="decimal"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? messageId : undefined}
        value={draft ?? shown(value)}
        disabled={disabled}
        data-row={row}
        data-column={column}
        onFocus={() => setDraft((typed) => typed ?? shown(value))}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
        onWheel={(event) => event.currentTarget.blur()}
      />
      {error ? (
        <span id={messageId} role="alert" className="cell-error">
          {error}
        </span>
      ) : null}
    </span>
  );
}
