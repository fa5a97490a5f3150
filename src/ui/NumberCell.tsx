import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import { parseNumberInput } from '../domain/number-input.ts';

type Props = {
  label: string;
  value: number | null;
  disabled?: boolean;
  /** Grid position, for arrow-key and Enter navigation between cells. */
  row: number;
  column: number;
  integer?: boolean;
  /** Called on leaving the cell with a changed, valid value (null when emptied). */
  onCommit(value: number | null): void;
  onInvalid(message: string): void;
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

/** A number input in a grid: commits on blur, never on the scroll wheel, moves by keyboard. */
export function NumberCell({ label, value, disabled, row, column, integer, onCommit, onInvalid }: Props) {
  // What the person is typing, only while the cell has focus; otherwise the cell shows its value.
  const [draft, setDraft] = useState<string | null>(null);

  function commit() {
    if (draft === null) return;
    setDraft(null);
    const parsed = parseNumberInput(draft, { integer, label });
    if (!parsed.ok) return onInvalid(parsed.message);
    if (parsed.value !== value) onCommit(parsed.value);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
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
    <input
      className="cell"
      type="text"
      inputMode="decimal"
      aria-label={label}
      value={draft ?? shown(value)}
      disabled={disabled}
      data-row={row}
      data-column={column}
      onFocus={() => setDraft(shown(value))}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={onKeyDown}
      onWheel={(event) => event.currentTarget.blur()}
    />
  );
}
