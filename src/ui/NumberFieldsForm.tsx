import { useState } from 'react';
import type { FormEvent } from 'react';
import { parseNumberInput } from '../domain/number-input.ts';

export type NumberField = { key: string; label: string; step?: string; integer?: boolean };

type Props = {
  fields: readonly NumberField[];
  values: Record<string, number | null>;
  submitLabel: string;
  disabled?: boolean;
  /** Receives only the changed fields (empty input as null); answers the message to show. */
  onSave(changes: Record<string, number | null>): Promise<string>;
  /** Where the outcome goes; kept by the parent so it outlives a re-render of the form. */
  onResult(message: FormResult): void;
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
      const parsed = parseNumberInput(typed, { integer: field?.integer });
      return !parsed.ok || parsed.value !== (values[key] ?? null);
    }),
  );
}

/**
 * Numeric fields saved together. Every field is checked first: one bad entry is named and
 * nothing is saved. Scroll-wheel changes are blocked so scrolling never edits a value.
 * A field shows what the person typed until it is saved; the others follow the stored
 * values, so a change arriving from another device never wipes an entry in progress.
 */
export function NumberFieldsForm({ fields, values, submitLabel, disabled, onSave, onResult }: Props) {
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  // When the stored values change (a save landing, or sync), entries they now match are settled.
  const valuesKey = JSON.stringify(values);
  const [seenValues, setSeenValues] = useState(valuesKey);
  if (seenValues !== valuesKey) {
    setSeenValues(valuesKey);
    setEdits(unsettled(edits, values, fields));
  }
  const text = (key: string) => edits[key] ?? show(values[key]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const changes: Record<string, number | null> = {};
    for (const field of fields) {
      const parsed = parseNumberInput(text(field.key), { integer: field.integer, label: field.label });
      if (!parsed.ok) return onResult({ text: parsed.message, error: true });
      if (parsed.value !== (values[field.key] ?? null)) changes[field.key] = parsed.value;
    }
    setBusy(true);
    const result = await onSave(changes);
    setBusy(false);
    onResult({ text: result, error: /^(Failed|Store ID)/.test(result) });
  }

  return (
    <form className="number-form" onSubmit={(event) => void submit(event)}>
      <div className="fields">
        {fields.map((field) => (
          <label key={field.key}>
            {field.label}
            <input
              type="number"
              inputMode="decimal"
              step={field.step ?? (field.integer ? '1' : 'any')}
              value={text(field.key)}
              disabled={disabled || busy}
              onWheel={(event) => event.currentTarget.blur()}
              onChange={(event) => setEdits({ ...edits, [field.key]: event.target.value })}
            />
          </label>
        ))}
      </div>
      <button type="submit" className="primary" disabled={disabled || busy}>
        {busy ? 'Saving...' : submitLabel}
      </button>
    </form>
  );
}
