import { useCallback, useEffect, useMemo, useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import type { CachedComparison, StoreMonthPair } from '../../data/repositories/store-comparison.ts';
import { cacheComparison, cachedComparison, comparisonOf } from '../../data/repositories/store-comparison.ts';
import type { TileStatus } from '../../domain/colour-rules.ts';
import { monthLabel } from '../../domain/month.ts';
import { dailyMonthOf, todayIso } from '../../data/month-view.ts';
import { useSelectedMonth } from '../session/use-month.ts';
import { useServerReads, useSyncStatus } from '../session/session-context.tsx';
import { errorText } from '../../sync/errors.ts';

type Cell = { value: number | null; text: string; status?: TileStatus };
type Line = { storeId: string; name: string; cells: Record<ColumnId, Cell> };
type ColumnId = 'hoursPerDay' | 'salesPerDay' | 'cpElr' | 'warrantyElr' | 'internalElr' | 'monthComplete' | 'hoursPace' | 'salesPace' | 'salesChange';

const columns: Array<{ id: ColumnId; label: string }> = [
  { id: 'hoursPerDay', label: 'Hours / Day' },
  { id: 'salesPerDay', label: 'Sales / Day' },
  { id: 'cpElr', label: 'CP ELR' },
  { id: 'warrantyElr', label: 'W ELR' },
  { id: 'internalElr', label: 'I ELR' },
  { id: 'monthComplete', label: 'Month Complete' },
  { id: 'hoursPace', label: 'Hours Pace' },
  { id: 'salesPace', label: 'Sales Pace' },
  { id: 'salesChange', label: 'Sales / Day vs Last Year' },
];

/** Every store's figures, computed as each store's own screens compute them. */
function linesOf(stores: StoreMonthPair[], today: string): Line[] {
  return stores.map((store) => {
    const now = dailyMonthOf(store.current, today);
    const before = dailyMonthOf(store.lastYear, today);
    const figure = (id: 'hoursPerDay' | 'salesPerDay' | 'cpElr' | 'warrantyElr' | 'internalElr' | 'monthComplete'): Cell => ({
      value: now.figures[id].value,
      text: now.figures[id].value === null ? '-' : now.figures[id].headline,
      status: now.figures[id].status,
    });
    const pace = (id: 'hours' | 'sales'): Cell => {
      const line = now.paces.find((p) => p.id === id);
      return { value: line?.pace.needed ?? null, text: line ? `${line.neededText} (${line.pace.words})` : '-', status: line?.pace.status };
    };
    const salesNow = now.figures.salesPerDay.value;
    const salesBefore = before.figures.salesPerDay.value;
    const change = salesNow !== null && salesBefore ? ((salesNow - salesBefore) / salesBefore) * 100 : null;
    return {
      storeId: store.storeId,
      name: store.name,
      cells: {
        hoursPerDay: figure('hoursPerDay'),
        salesPerDay: figure('salesPerDay'),
        cpElr: figure('cpElr'),
        warrantyElr: figure('warrantyElr'),
        internalElr: figure('internalElr'),
        monthComplete: figure('monthComplete'),
        hoursPace: pace('hours'),
        salesPace: pace('sales'),
        salesChange: { value: change, text: change === null ? '-' : `${change >= 0 ? '+' : ''}${change.toFixed(1)}%`, status: change === null ? undefined : change >= 0 ? 'good' : 'behind' },
      },
    };
  });
}

function ageText(fetchedAt: number, now: number): string {
  const minutes = Math.round((now - fetchedAt) / 60_000);
  const at = new Date(fetchedAt).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
  return minutes < 1 ? `as of ${at} (just now)` : `as of ${at} (${minutes} minute${minutes === 1 ? '' : 's'} ago)`;
}

/**
 * Store comparison (admins): every store side by side for the month, sortable by any
 * column, coloured like the tiles. Read from the server when online and kept on the
 * device, so it can be viewed offline with its age shown.
 */
export function ComparePage() {
  const device = useDevice();
  const reads = useServerReads();
  const { online } = useSyncStatus();
  const { month } = useSelectedMonth();
  const [data, setData] = useState<{ fetchedAt: number; stores: StoreMonthPair[]; age: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [sort, setSort] = useState<{ by: ColumnId | 'name'; descending: boolean }>({ by: 'name', descending: false });

  /** The server's comparison, kept on the device; `cached` stays on screen when the server cannot answer. */
  const readServer = useCallback(
    async (cached: CachedComparison | null) => {
      if (!online) {
        setMessage(cached ? 'Offline: showing the last comparison read.' : 'Offline: the comparison is read from the server; no copy of this month is on this device yet.');
        return;
      }
      setMessage('Reading every store...');
      try {
        const answer = await reads.storeComparison(month);
        const fetchedAt = Date.now();
        await cacheComparison(device.db, month, answer, fetchedAt);
        setData({ fetchedAt, stores: comparisonOf(month, answer), age: ageText(fetchedAt, fetchedAt) });
        setMessage(null);
      } catch (error) {
        setMessage(`${errorText(error)}${cached ? ' Showing the last comparison read.' : ''}`);
      }
    },
    [device, month, online, reads],
  );

  const load = useCallback(
    () =>
      cachedComparison(device.db, month).then((cached) => {
        setData(cached ? { ...cached, age: ageText(cached.fetchedAt, Date.now()) } : null);
        return readServer(cached);
      }),
    [device, month, readServer],
  );

  useEffect(() => {
    // Read when the month (or the connection) changes: the copy on the device first, then the server.
    void load();
  }, [load]);

  const lines = useMemo(() => {
    const all = data ? linesOf(data.stores, todayIso()) : [];
    const value = (line: Line) => (sort.by === 'name' ? line.name : line.cells[sort.by].value);
    return [...all].sort((a, b) => {
      const x = value(a);
      const y = value(b);
      if (x === y) return 0;
      if (x === null) return 1; // empty figures last, either way
      if (y === null) return -1;
      const order = x < y ? -1 : 1;
      return sort.descending ? -order : order;
    });
  }, [data, sort]);

  const header = (id: ColumnId | 'name', label: string) => (
    <th scope="col" key={id} aria-sort={sort.by === id ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <button type="button" onClick={() => setSort({ by: id, descending: sort.by === id ? !sort.descending : id !== 'name' })}>
        {label}
      </button>
    </th>
  );

  return (
    <section className="card compare" aria-labelledby="compare-title">
      <h1 id="compare-title">Store Comparison</h1>
      {/* The button first and the table only once figures are read: the age and the rows
          arriving later move nothing already on screen. */}
      <p className="compare-meta">
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>{' '}
        {monthLabel(month)}
        {data ? `, ${data.age}` : ''}
      </p>
      {message ? <p role="status">{message}</p> : null}
      {data ? (
        <div className="scroll-x">
          <table className="compare-table" aria-label="Stores compared">
            <thead>
              <tr>
                {header('name', 'Store')}
                {columns.map((c) => header(c.id, c.label))}
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={line.storeId}>
                  <th scope="row">{line.name}</th>
                  {columns.map((c) => (
                    <td key={c.id} className={line.cells[c.id].status ?? ''}>
                      {line.cells[c.id].text}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
