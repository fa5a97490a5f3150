import { useState } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import type { ShownDraft } from '../../data/repositories/submit-drafts.ts';
import { discardDrafts, draftMonth } from '../../data/repositories/submit-drafts.ts';
import { monthLabel } from '../../domain/month.ts';
import { ModalDialog } from '../../ui/ModalDialog.tsx';

const values = (count: number) => (count === 1 ? '1 value' : `${count} values`);

/**
 * The values typed here and not submitted yet: how many, that they wait on this device,
 * which of them cannot be submitted (a closed month's: the server refuses its figures),
 * and a Discard that first asks, naming how many go.
 */
export function DraftsBar({ storeId, drafts }: { storeId: string; drafts: readonly ShownDraft[] }) {
  const device = useDevice();
  const [asking, setAsking] = useState<readonly ShownDraft[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  if (drafts.length === 0) return null;
  const closed = drafts.filter((draft) => draft.monthClosed);
  const closedMonths = [...new Set(closed.map(draftMonth))].map(monthLabel).join(', ');

  async function discard(chosen: readonly ShownDraft[]) {
    setAsking(null);
    try {
      await discardDrafts(device.db, storeId, chosen.map((draft) => draft.key));
      setFailure(null);
    } catch (error) {
      setFailure(`Could not discard: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return (
    <div className="drafts-bar" role="group" aria-label="Values not submitted">
      <p>
        {values(drafts.length)} not submitted (dashed outline): kept on this device until you submit or discard {drafts.length === 1 ? 'it' : 'them'}.{' '}
        <button type="button" className="danger" onClick={() => setAsking(drafts)}>
          Discard
        </button>
      </p>
      {closed.length ? (
        <p className="notice">
          {values(closed.length)} for {closedMonths}, a closed month, cannot be submitted: the server refuses a closed month&apos;s figures.
          Discard {closed.length === 1 ? 'it' : 'them'}, or ask an admin to reopen the month.{' '}
          <button type="button" className="danger" onClick={() => setAsking(closed)}>
            Discard the closed month&apos;s values
          </button>
        </p>
      ) : null}
      {failure ? <p role="alert">{failure}</p> : null}
      {asking ? (
        <ModalDialog title="Discard values not submitted" onClose={() => setAsking(null)}>
          <p>Discard {values(asking.length)} not submitted? They are deleted from this device; the server never had them.</p>
          <div className="actions">
            <button type="button" className="danger" onClick={() => void discard(asking)}>
              Discard {values(asking.length)}
            </button>
            <button type="button" onClick={() => setAsking(null)}>
              Cancel
            </button>
          </div>
        </ModalDialog>
      ) : null}
    </div>
  );
}
