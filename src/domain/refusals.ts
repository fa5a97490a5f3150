/**
 * Why the server refused an edit, as a sentence a service manager can act on: for a
 * broken field limit, the field (named as its cell is) and what it takes, found from the
 * constraint's name (23514) or from the sent value that breaks its limit (22003 numeric
 * overflow, 22P02 invalid text, a refused request body); plain words for the other
 * causes. The server's own message is kept beside it by the caller, never replaced.
 */
import type { ResolvedLimit, RowValues } from './field-rules.ts';
import { constraintField, fieldName, isNumberLimit, limitOf, rangeText, rowProblem, shorten, valueProblem } from './field-rules.ts';

export type Refusal = { table: string; code: string; message: string; keyValues: RowValues; changes: RowValues };

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });

function shown(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? grouped.format(value) : String(value);
  if (typeof value === 'string') return `"${shorten(value)}"`;
  return shorten(JSON.stringify(value) ?? String(value));
}

/** What a field takes, in words: "a number from 0 to 1,000", "text of at most 200 characters". */
function allowed(limit: ResolvedLimit): string {
  if (isNumberLimit(limit)) return rangeText(limit);
  if (limit.kind === 'text') return `text of at most ${limit.maxLength} characters`;
  if (limit.kind === 'list') return `at most ${limit.maxItems} items`;
  return limit.values ? `one of ${limit.values.join(', ')}` : `a valid ${limit.label.toLowerCase()}`;
}

/** A refusal by the rule of one field, named by its constraint. */
function fieldRefusal(refusal: Refusal, column: string): string {
  const row = { ...refusal.keyValues, ...refusal.changes };
  const name = fieldName(refusal.table, column, row);
  const limit = limitOf(refusal.table, column, row);
  if (!limit) return `${name}: the server refused the value under its rule for this field.`;
  if (!Object.hasOwn(refusal.changes, column)) {
    return `${name}: the value kept on the server is not ${allowed(limit)}; correct it on this screen, then try again.`;
  }
  const value = refusal.changes[column];
  const problem = valueProblem(limit, value);
  // Some problems already quote the value ("NaN" is not a number); the others get it named first.
  if (problem) return problem.startsWith('"') ? `${name}: ${problem}.` : `${name}: ${shown(value)} is not allowed; ${problem}.`;
  // This device's limits allow it: the server's rule is newer than this copy of the app.
  return `${name}: the server refused ${shown(value)} under a rule newer than this app (which allows ${allowed(limit)}); reload the app to update it, then correct the value.`;
}

/** The server's SQLSTATE for a change to a closed month's figures. */
export const closedMonthCode = '23M01';

const otherCauses: Record<string, string> = {
  '42501': "This account may not change this record: it belongs to another store, or the account's access changed.",
  '23503': 'This edit refers to something that no longer exists on the server (a removed store or advisor).',
  '23505': 'Another record on the server already has the same date and category.',
  '23502': 'A required field of this record is empty.',
};

/** The sentence for a dead letter; the caller shows the server's code and message next to it. */
export function explainRefusal(refusal: Refusal): string {
  // A closed month: the server's message says who closed it and when ("month closed by NAME on DATE").
  if (refusal.code === closedMonthCode) {
    return `This edit was not saved on the server: the ${refusal.message}. An administrator can reopen the month; export the edit to keep it.`;
  }
  if (refusal.code === '23514') {
    const constraint = /check constraint "([^"]+)"/.exec(refusal.message)?.[1];
    const field = constraint ? constraintField(constraint) : undefined;
    if (field && field.table === refusal.table) return fieldRefusal(refusal, field.column);
    if (constraint) return `The server refused this edit under its rule "${constraint}".`;
  }
  if (refusal.code.startsWith('22') || refusal.code.startsWith('23') || refusal.code === 'PGRST102') {
    const problem = rowProblem(refusal.table, { ...refusal.keyValues, ...refusal.changes });
    // A sent number is named, so the person sees what was refused; text values are already quoted in the message.
    if (problem) return typeof problem.value === 'number' ? `${problem.message.slice(0, -1)} (sent: ${shown(problem.value)}).` : problem.message;
  }
  // Reopening a month without the authenticator code it needs: the server says what to do.
  if (refusal.code === '42501' && /authenticator app/.test(refusal.message)) {
    return `${refusal.message} The change was not saved on the server; try again once that is done.`;
  }
  return otherCauses[refusal.code] ?? 'The server refused this edit.';
}
