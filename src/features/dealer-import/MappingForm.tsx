import { useId } from 'react';
import type { Delimiter } from '../../domain/import/csv-file.ts';
import type { CategoryColumns, ImportMapping } from '../../domain/import/mapping.ts';
import { categories, categoryNames, codeKey } from '../../domain/import/mapping.ts';
import type { DateFormat, DecimalMark } from '../../domain/import/report-values.ts';
import { dateFormatExamples, dateFormats, decimalMarkExamples } from '../../domain/import/report-values.ts';
import type { Category } from '../../domain/kpi-math.ts';

const separators: Array<{ value: Delimiter; label: string }> = [
  { value: ',', label: 'Commas' },
  { value: ';', label: 'Semicolons' },
  { value: '\t', label: 'Tabs' },
];
const noColumn = '';
const leftOut = '';
const metricNames = { hours: 'hours', sales: 'sales' } as const;

function Choice({ label, value, options, onChange, none }: { label: string; value: string; options: readonly string[]; onChange(value: string): void; none?: string }) {
  const id = useId();
  // A saved heading the file lacks stays listed, so the form shows what the mapping says.
  const listed = value && !options.includes(value) ? [value, ...options] : options;
  return (
    <div className="mapping-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {none !== undefined || !value ? <option value={noColumn}>{none ?? 'Choose a column'}</option> : null}
        {listed.map((heading) => (
          <option key={heading} value={heading}>
            {heading}
          </option>
        ))}
      </select>
    </div>
  );
}

const emptyColumns = (): CategoryColumns => ({ CP: { hours: null, sales: null }, W: { hours: null, sales: null }, I: { hours: null, sales: null } });

/** The other layout, keeping what both share. */
function switchLayout(mapping: ImportMapping, layout: ImportMapping['layout']): ImportMapping {
  const { delimiter, decimalMark, dateFormat, dateColumn } = mapping;
  const common = { delimiter, decimalMark, dateFormat, dateColumn };
  if (layout === 'columns') return { ...common, layout, columns: emptyColumns() };
  return { ...common, layout, payTypeColumn: '', hoursColumn: null, salesColumn: null, payTypes: { CP: [], W: [], I: [] } };
}

/** The pay-type codes with one code moved to a category, or left out. */
function withCode(payTypes: Record<Category, string[]>, code: string, category: Category | ''): Record<Category, string[]> {
  const next = Object.fromEntries(categories.map((c) => [c, payTypes[c].filter((mapped) => codeKey(mapped) !== codeKey(code))])) as Record<Category, string[]>;
  if (category) next[category] = [...next[category], code];
  return next;
}

/**
 * The store's mapping of its dealer system's export, as a form: how the file is written
 * (separator, numbers, dates) and which column holds what. Every change reads the file
 * again, so the preview below always shows what this mapping gives.
 */
export function MappingForm({ mapping, headings, payTypes, onChange }: { mapping: ImportMapping; headings: readonly string[]; payTypes: readonly string[]; onChange(mapping: ImportMapping): void }) {
  const set = (change: Partial<ImportMapping>) => onChange({ ...mapping, ...change } as ImportMapping);
  const categoryOf = (code: string): Category | '' =>
    mapping.layout === 'pay-type' ? (categories.find((c) => mapping.payTypes[c].some((mapped) => codeKey(mapped) === codeKey(code))) ?? leftOut) : leftOut;
  return (
    <div className="mapping-form">
      <fieldset>
        <legend>How the file is written</legend>
        <div className="mapping-fields">
          <WrittenAs mapping={mapping} onChange={onChange} />
        </div>
      </fieldset>
      <fieldset>
        <legend>Which column holds what</legend>
        <div className="mapping-fields">
          <Choice label="Date" value={mapping.dateColumn} options={headings} onChange={(dateColumn) => set({ dateColumn })} />
          <div className="mapping-field">
            <LayoutChoice value={mapping.layout} onChange={(layout) => onChange(switchLayout(mapping, layout))} />
          </div>
          {mapping.layout === 'pay-type' ? (
            <>
              <Choice label="Pay type" value={mapping.payTypeColumn} options={headings} onChange={(payTypeColumn) => set({ payTypeColumn })} />
              <Choice label="Hours" value={mapping.hoursColumn ?? noColumn} options={headings} none="No hours column" onChange={(hours) => set({ hoursColumn: hours || null })} />
              <Choice label="Sales" value={mapping.salesColumn ?? noColumn} options={headings} none="No sales column" onChange={(sales) => set({ salesColumn: sales || null })} />
            </>
          ) : (
            categories.flatMap((category) =>
              (['hours', 'sales'] as const).map((metric) => (
                <Choice
                  key={`${category}-${metric}`}
                  label={`${category} ${metricNames[metric]}`}
                  value={mapping.columns[category][metric] ?? noColumn}
                  options={headings}
                  none="Not in this file"
                  onChange={(heading) => set({ columns: { ...mapping.columns, [category]: { ...mapping.columns[category], [metric]: heading || null } } })}
                />
              )),
            )
          )}
        </div>
      </fieldset>
      {mapping.layout === 'pay-type' && payTypes.length > 0 ? (
        <fieldset>
          <legend>Pay types in this file</legend>
          <div className="mapping-fields">
            {payTypes.map((code) => (
              <CodeChoice key={codeKey(code)} code={code} value={categoryOf(code)} onChange={(category) => mapping.layout === 'pay-type' && set({ payTypes: withCode(mapping.payTypes, code, category) })} />
            ))}
          </div>
        </fieldset>
      ) : null}
    </div>
  );
}

function LayoutChoice({ value, onChange }: { value: ImportMapping['layout']; onChange(layout: ImportMapping['layout']): void }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>Lines of the report</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as ImportMapping['layout'])}>
        <option value="pay-type">One line per day and pay type</option>
        <option value="columns">One line per day, columns per category</option>
      </select>
    </>
  );
}

function CodeChoice({ code, value, onChange }: { code: string; value: Category | ''; onChange(category: Category | ''): void }) {
  const id = useId();
  return (
    <div className="mapping-field">
      <label htmlFor={id}>Pay type &quot;{code}&quot;</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as Category | '')}>
        <option value={leftOut}>Left out</option>
        {categories.map((category) => (
          <option key={category} value={category}>
            {category}: {categoryNames[category]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The separator, and how numbers and dates are written. */
function WrittenAs({ mapping, onChange }: { mapping: ImportMapping; onChange(mapping: ImportMapping): void }) {
  const ids = { separator: useId(), numbers: useId(), dates: useId() };
  return (
    <>
      <div className="mapping-field">
        <label htmlFor={ids.separator}>Columns separated by</label>
        <select id={ids.separator} value={mapping.delimiter} onChange={(event) => onChange({ ...mapping, delimiter: event.target.value as Delimiter })}>
          {separators.map((s) => (
            <option key={s.label} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className="mapping-field">
        <label htmlFor={ids.numbers}>Numbers written as</label>
        <select id={ids.numbers} value={mapping.decimalMark} onChange={(event) => onChange({ ...mapping, decimalMark: event.target.value as DecimalMark })}>
          {(['.', ','] as const).map((mark) => (
            <option key={mark} value={mark}>
              {decimalMarkExamples[mark]}
            </option>
          ))}
        </select>
      </div>
      <div className="mapping-field">
        <label htmlFor={ids.dates}>Dates written as</label>
        <select id={ids.dates} value={mapping.dateFormat} onChange={(event) => onChange({ ...mapping, dateFormat: event.target.value as DateFormat })}>
          {dateFormats.map((format) => (
            <option key={format} value={format}>
              {format} ({dateFormatExamples[format]})
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
