/**
 * What happens when this device's edit of a row meets the server's copy of that row:
 * either a pull brings the row while the edit still waits in the outbox, or a push's
 * answer says what the row held just before the edit overwrote it. The rule and its
 * reasons are in docs/reliability.md, "Who wins when two devices change one field".
 *
 * Field by field, the last value to reach the server wins, and this device's pending
 * value is on its way there, so it always stays. What it replaces is a conflict, and is
 * logged, unless it is a value nobody else wrote: the value the edit replaced, the edit's
 * own value, or a value this device sent earlier whose answer was lost. A row deleted on
 * the server under a pending edit is one conflict for the whole edit.
 */

export type Fields = Readonly<Record<string, unknown>>;

/** One device's edit of one row, at the moment it meets the server's copy of the row. */
export type EditMeetsServer = {
  /** The fields this device changed, with its values. */
  ours: Fields;
  /** What each of those fields held when the edit began: the server's value as the device last knew it. */
  replaced: Fields | undefined;
  /** What earlier pushes of this edit sent whose answers may have been lost, oldest first. */
  sentEarlier: readonly Fields[];
  /** The server's copy of the row, or 'deleted' when the server removed it. */
  server: Fields | 'deleted';
};

/**
 * A value another device wrote that this device's edit replaces. `old`: what this device
 * last knew the field to hold (the newest value it sent, else the value its edit
 * replaced); null where the field was empty or new.
 */
export type FieldConflict = { field: string; old: unknown; theirs: unknown; ours: unknown };

/** Value equality for row fields: numbers, strings, null, and arrays/objects by content. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return false;
}

/** The conflicts an edit meeting the server's row gives, in the order of the edit's fields. */
export function conflictsOf({ ours, replaced, sentEarlier, server }: EditMeetsServer): FieldConflict[] {
  if (server === 'deleted') return [{ field: '*', old: null, theirs: 'deleted', ours }];
  const conflicts: FieldConflict[] = [];
  for (const [field, value] of Object.entries(ours)) {
    const theirs = server[field];
    const sent = sentEarlier.filter((changes) => field in changes).map((changes) => changes[field]);
    const nobodyElse = sameValue(theirs, replaced?.[field]) || sameValue(theirs, value) || sent.some((own) => sameValue(own, theirs));
    if (nobodyElse) continue;
    const old = sent.length > 0 ? sent[sent.length - 1] : replaced?.[field];
    conflicts.push({ field, old: old ?? null, theirs: theirs ?? null, ours: value });
  }
  return conflicts;
}
