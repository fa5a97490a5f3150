import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { NumberLimit } from '../domain/limits.ts';
import { parseNumberInput } from '../domain/number-input.ts';

/** A field of the form and what it may hold (src/domain/limits.ts). */
export type NumberField = { key: string; label: string; limit: NumberLimit; /** Shown under the field: what an empty value means. */ hint?: string };

type Props = {
  fields: readonly NumberField[];
  values: Record<string, number | null>;
  submitLabel: string;
  disabled?: boolean;
  /** Receives only the changed fields (empty input as null); answers the message to show. */
  onSave(changes: Record<string, number | null>): Promise<string>;
  /** Where the outcome goes; kept by the parent so it outlives a re-render of the form. */
  onResult(message: FormResult): void;
  /** A rule across the fields (e.g. shares adding up to 100): the reason nothing was saved, or null. */
  crossCheck?(values: Record<string, number | null>): string | null;
};

export type FormResult = { text: string; error: boolean };

export function FormMessage({ message }: { message: FormResult | null }) {
  if (!message) return null;
  return (
    <p role={message.error ? 'alert' : 'status'} className={message.error ? 'error' : 'success'}>
      {message.text}
    </p>
  );
}

const show = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

/** Keeps only the typed entries that still differ from the stored values. */
function unsettled(edits: Record<string, string>, values: Record<string, number | null>, fields: readonly NumberField[]) {
  return Object.fromEntries(
    Object.entries(edits).filter(([key, typed]) => {
      const field = fields.find((f) => f.key === key);
      if (!field) return false;
      const parsed = parseNumberInput(typed, field.limit, field.label);
      return !parsed.ok || parsed.value !== (values[key] ?? null);
    }),
  );
}

/**
 * Numeric fields saved together. A field is checked against its limit when it is left
 * and again on saving: a bad entry is marked invalid with its reason (announced), keeps
 * what was typed, and nothing is saved. Scroll-wheel changes are blocked so scrolling
 * never edits a value. A field shows what the person typed until it is saved; the others
 * follow the stored values, so a change arriving from another device never wipes an entry
 * in progress.
 */
export function NumberFieldsForm({ fields, values, submitLabel, disabled, onSave, onResult, crossCheck }: Props) {
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const formId = useId();
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const saveButton = useRef<HTMLButtonElement>(null);
  // When the stored values change (a save landing, or sync), entries they now match are settled.
  const valuesKey = JSON.stringify(values);
  const [seenValues, setSeenValues] = useState(valuesKey);
  if (seenValues !== valuesKey) {
    setSeenValues(valuesKey);
    setEdits(unsettled(edits, values, fields));
  }
  const text = (key: string) => edits[key] ?? show(values[key]);
  const messageId = (key: string) => `${formId}-${key}-error`;

  function check(field: NumberField, typed: string) {
    const parsed = parseNumberInput(typed, field.limit, field.label);
    const { [field.key]: _old, ...others } = errors;
    setErrors(parsed.ok ? others : { ...others, [field.key]: parsed.message });
  }

  function change(field: NumberField, typed: string) {
    setEdits({ ...edits, [field.key]: typed });
    // A mark goes as soon as the entry is right, so the form settles before the next click.
    if (errors[field.key] && parseNumberInput(typed, field.limit, field.label).ok) check(field, typed);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const changes: Record<string, number | null> = {};
    const after: Record<string, number | null> = {};
    const refused: Record<string, string> = {};
    for (const field of fields) {
      const parsed = parseNumberInput(text(field.key), field.limit, field.label);
      if (!parsed.ok) refused[field.key] = parsed.message;
      else {
        after[field.key] = parsed.value;
        if (parsed.value !== (values[field.key] ?? null)) changes[field.key] = parsed.value;
      }
    }
    setErrors(refused);
    const first = fields.find((field) => refused[field.key]);
    if (first) {
      inputs.current.get(first.key)?.focus();
      const count = Object.keys(refused).length;
      return onResult({ text: `Nothing was saved: ${count === 1 ? 'one field needs' : `${count} fields need`} correcting.`, error: true });
    }
    const across = crossCheck?.(after);
    if (across) return onResult({ text: `Nothing was saved: ${across}`, error: true });
    setBusy(true);
    const result = await onSave(changes);
    setBusy(false);
    onResult({ text: result, error: /^(Failed|Store ID)/.test(result) });
  }

  return (
    <form className="number-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="fields">
        {fields.map((field) => (
          // The reason sits beside the label, not in it, so the field's name stays its label alone.
          <div key={field.key} className="field">
            <label htmlFor={`${formId}-${field.key}`}>{field.label}</label>
            {field.hint ? (
              <span id={`${formId}-${field.key}-hint`} className="hint">
                {field.hint}
              </span>
            ) : null}
            <input
              id={`${formId}-${field.key}`}
              ref={(input) => {
                if (input) inputs.current.set(field.key, input);
                else inputs.current.delete(field.key);
              }}
              type="text"
              inputMode="decimal"
              value={text(field.key)}
              disabled={disabled || busy}
              aria-invalid={errors[field.key] ? true : undefined}
              aria-describedby={[errors[field.key] ? messageId(field.key) : '', field.hint ? `${formId}-${field.key}-hint` : ''].filter(Boolean).join(' ') || undefined}
              onWheel={(event) => event.currentTarget.blur()}
              onChange={(event) => change(field, event.target.value)}
              // Leaving for the save button is checked by the save itself: a message appearing
              // now would move the button from under the pointer and lose the click.
              onBlur={(event) => {
                if (event.relatedTarget !== saveButton.current) check(field, text(field.key));
              }}
            />
            {errors[field.key] ? (
              <span id={messageId(field.key)} role="alert" className="field-error">
                {errors[field.key]}
              </span>
            ) : null}
          </div>
        ))}
      </div>
      <button ref={saveButton} type="submit" className="primary" disabled={disabled || busy}>
        {busy ? 'Saving...' : submitLabel}
      </button>
    </form>
  );
}
