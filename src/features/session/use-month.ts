import { useSyncExternalStore } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import type { MonthKey } from '../../domain/month.ts';
import { readMonth, shiftMonth } from '../../domain/month.ts';

/**
 * The month a person chose, drawn before the address says it. The router draws a new
 * address in a transition, later and in slices; so a click draws the chosen month at once
 * and writes the address once that frame is painted (docs/performance.md, "The chosen
 * month drawn at once"). A click moves on from the latest month chosen, not from the month
 * of its button's last drawing: a second click before that drawing was lost.
 *
 * A choice belongs to the address it was made on. The router gives every history entry a
 * key; writing the month replaces the entry with one of a new key, which `lineages` maps
 * to the key the first of those entries had, so an address and the months written into it
 * stay one lineage. Any other change of address (a link, the back button) is another lineage,
 * where the address rules again.
 */
type Choice = { month: MonthKey; lineage: string };

let choice: Choice | null = null;
const listeners = new Set<() => void>();
/** A history entry written by a month's write -> the key of the entry its lineage started with. */
const lineages = new Map<string, string>();

function choose(next: Choice | null): void {
  choice = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const readChoice = () => choice;

/** The key an entry's lineage started with: its own, unless a month's write made it. */
const lineageOf = (key: string) => lineages.get(key) ?? key;

/** The month an address names (this month when it names none). */
const monthOf = (search: URLSearchParams) => readMonth(search.get('month'), new Date());

/** The router's key of the address shown, from its history entry ("default" for the first). */
const addressKey = () => (window.history.state as { key?: string } | null)?.key ?? 'default';

/**
 * The month shown, as a click reads it: the latest choice on this address, else the
 * address's own. Not the month of the click handler's drawing: two clicks can come before
 * the drawing between them, and each must move the month on from where the other left it.
 */
function monthNow(): MonthKey {
  if (choice && choice.lineage === lineageOf(addressKey())) return choice.month;
  return monthOf(new URLSearchParams(window.location.search));
}

/** After the frame that draws the chosen month has been painted. */
function afterPaint(work: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    work();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  // A page out of sight gets no frames (an app sent to the background right after a click):
  // its address is written all the same.
  setTimeout(once, 250);
}

/** The month all screens show, kept in the URL (?month=yyyy-MM) so a reload or a shared link keeps it. */
export function useSelectedMonth(): { month: MonthKey; move(by: number): void; setMonth(month: MonthKey): void } {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const chosen = useSyncExternalStore(subscribe, readChoice, readChoice);
  const month = chosen && chosen.lineage === lineageOf(location.key) ? chosen.month : monthOf(params);
  const setMonth = (value: MonthKey) => {
    const made: Choice = { month: value, lineage: lineageOf(addressKey()) };
    choose(made);
    afterPaint(() => {
      // A later choice writes its own month; one whose address was left meanwhile is dropped.
      if (choice !== made) return;
      const replaced = addressKey();
      if (lineageOf(replaced) !== made.lineage) {
        choose(null);
        return;
      }
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('month', value);
          return next;
        },
        { replace: true },
      );
      const written = addressKey();
      if (written !== replaced) lineages.set(written, made.lineage);
    });
  };
  return { month, move: (by) => setMonth(shiftMonth(monthNow(), by)), setMonth };
}
