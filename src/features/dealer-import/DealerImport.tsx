import { useId, useMemo, useState } from 'react';
import type { ChangeEvent } from 'react';
import { useDevice } from '../../data/device-context.tsx';
import { ImportStoppedError, readImportTargets, saveImportMapping, saveImportedValues, useImportTargets, useSavedImportMapping } from '../../data/repositories/dealer-import.ts';
import { importSource, mappingChoices, openReport, readWithMapping } from '../../domain/import/import-file.ts';
import type { ImportMapping } from '../../domain/import/mapping.ts';
import { parseSavedMapping, serializeMapping } from '../../domain/import/mapping.ts';
import { previewImport } from '../../domain/import/preview.ts';
import { importLimits } from '../../domain/limits.ts';
import { ModalDialog } from '../../ui/ModalDialog.tsx';
import { errorText } from '../../sync/errors.ts';
import { useAccount } from '../session/session-context.tsx';
import { ImportPreviewView } from './ImportPreviewView.tsx';
import { MappingForm } from './MappingForm.tsx';

const count = new Intl.NumberFormat('en-US');

type Opened = { fileName: string; text: string };
type Outcome = { kind: 'done' | 'failed'; message: string };

/**
 * "Import from dealer system": the day-end labour-sales report of the store's dealer
 * system (CSV), read with the store's saved column mapping, previewed against this
 * device's values, and written on confirmation as the grid's own edits: saved on the
 * device first and sent with the next sync, refused in a closed month. docs/import.md.
 */
export function DealerImportButton() {
  const [open, setOpen] = useState(false);
  const { storeId } = useAccount();
  return (
    <>
      <button type="button" disabled={!storeId} onClick={() => setOpen(true)}>
        Import from dealer system
      </button>
      {open && storeId ? <ImportDialog storeId={storeId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ImportDialog({ storeId, onClose }: { storeId: string; onClose(): void }) {
  const device = useDevice();
  const fileId = useId();
  const savedText = useSavedImportMapping(storeId);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [mapping, setMapping] = useState<ImportMapping | null>(null);
  const [fromSaved, setFromSaved] = useState(false);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState<{ done: number; of: number } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const choices = useMemo(() => (opened && mapping ? mappingChoices(opened.text, mapping) : null), [opened, mapping]);
  const report = useMemo(() => (opened && mapping ? readWithMapping(opened.text, mapping) : null), [opened, mapping]);
  const range = report?.ok && report.cells.length > 0 ? { from: report.cells[0]?.date ?? '', to: report.cells.at(-1)?.date ?? '' } : null;
  // What the file's days hold on this device now, kept current while the dialog is open.
  const targets = useImportTargets(storeId, range?.from ?? null, range?.to ?? null);
  const preview = useMemo(() => (report?.ok && targets ? previewImport(report, targets) : null), [report, targets]);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setOutcome(null);
    setOpened(null);
    setMapping(null);
    if (!file) return;
    if (file.size > importLimits.fileBytes) {
      return setFileProblem(`${file.name} is too large: the import reads files up to ${importLimits.fileBytes / (1024 * 1024)} MB (several years of days). Export a shorter period.`);
    }
    try {
      const result = openReport(new Uint8Array(await file.arrayBuffer()), parseSavedMapping(savedText));
      if (!result.ok) return setFileProblem(result.message);
      setFileProblem(null);
      setOpened({ fileName: file.name, text: result.text });
      setMapping(result.mapping);
      setFromSaved(result.fromSaved);
    } catch (error) {
      setFileProblem(`${file.name} could not be read: ${errorText(error)}`);
    }
  }

  async function confirm() {
    if (!opened || !mapping || !report?.ok || !range) return;
    setOutcome(null);
    try {
      // Read again now: a sync or another tab may have changed a value since the preview was drawn.
      const fresh = previewImport(report, await readImportTargets(device, storeId, range.from, range.to));
      const mappingText = serializeMapping(mapping);
      if (mappingText !== savedText) await saveImportMapping(device, storeId, mappingText);
      setSaving({ done: 0, of: fresh.writes.length });
      const changed = await saveImportedValues(device, storeId, fresh.writes, importSource(opened.fileName), (done) => setSaving({ done, of: fresh.writes.length }));
      setOutcome({
        kind: 'done',
        message: `Imported ${count.format(changed)} value${changed === 1 ? '' : 's'} from ${opened.fileName}. They are saved on this device; the bar at the top shows when they reach the server.`,
      });
    } catch (error) {
      const partly = error instanceof ImportStoppedError ? ` ${count.format(error.saved)} values were saved before it stopped; import the file again to add the rest.` : ' Nothing was imported.';
      setOutcome({ kind: 'failed', message: `The import stopped: ${errorText(error instanceof ImportStoppedError ? error.reason : error)}${partly}` });
    } finally {
      setSaving(null);
    }
  }

  const writable = preview?.writes.length ?? 0;
  return (
    <ModalDialog title="Import from the dealer system" onClose={onClose} className="import-dialog">
      <div className="dealer-import">
        <p className="hint">
          The labour sales report by pay type, exported from the dealer system as CSV (or Excel CSV). Nothing is written until you confirm, and values of a closed month are refused.
        </p>
        <div className="mapping-field">
          <label htmlFor={fileId}>Report file</label>
          <input id={fileId} type="file" accept=".csv,.txt,text/csv,text/plain" onChange={(event) => void choose(event)} />
        </div>
        {fileProblem ? (
          <p className="error" role="alert">
            {fileProblem}
          </p>
        ) : null}
        {opened && mapping && choices ? (
          <>
            <p className="hint">
              {fromSaved ? "Read with the store's saved mapping." : 'A mapping was suggested from the headings: check it. It is saved for the store when you import.'}
              {choices.ok ? ` Headings on line ${count.format(choices.headingLine)}.` : ''}
            </p>
            <MappingForm mapping={mapping} headings={choices.ok ? choices.headings : []} payTypes={choices.ok ? choices.payTypes : []} onChange={setMapping} />
            {report && !report.ok ? (
              <p className="error" role="alert">
                {report.message}
              </p>
            ) : null}
            {/* While saving, the table would be drawn again after every batch, for values it no longer shows. */}
            {preview && !saving ? <ImportPreviewView preview={preview} /> : null}
          </>
        ) : null}
        {saving ? (
          <p role="status">
            Saving {count.format(saving.done)} of {count.format(saving.of)} values...
          </p>
        ) : null}
        {outcome ? (
          <p className={outcome.kind === 'done' ? 'success' : 'error'} role={outcome.kind === 'done' ? 'status' : 'alert'}>
            {outcome.message}
          </p>
        ) : null}
        <div className="actions">
          {preview && !outcome ? (
            <button type="button" className="primary" disabled={writable === 0 || saving !== null} onClick={() => void confirm()}>
              {writable === 0 ? 'Nothing to import' : `Import ${count.format(writable)} value${writable === 1 ? '' : 's'}`}
            </button>
          ) : null}
          <button type="button" onClick={onClose}>
            {outcome?.kind === 'done' ? 'Close' : 'Cancel'}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
