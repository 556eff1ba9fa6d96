/**
 * A stored run as a bundle's text (bundle.ts's format), written once over the store port so both
 * hosts export the same file.
 */
import { BUNDLE_FORMAT, BUNDLE_VERSION, storedEndpoints } from '../storage/bundle';
import type { RunRecords } from './ports';
import { RUN_DATA_STORES } from '../storage/schema';

/** Rows read per page, and characters gathered into one piece of the file (bounds memory). */
const PAGE_ROWS = 500;
const PIECE_CHARS = 4 * 1024 * 1024;

/**
 * A stored run as a bundle's text, written piece by piece: each kind of row is read a page at a
 * time and the JSON text comes out in pieces of a few MB, so a run with hundreds of thousands of
 * rows is never one giant string (the page turns each piece into a Blob part, which the browser
 * may keep on disk; the runner appends each to the file). The text is the JSON a `RunBundle`
 * serialises to, the same from either store. Null when there is no such run.
 */
export async function bundlePieces(
  records: RunRecords,
  runId: string,
  exportedAt: string,
): Promise<AsyncIterable<string> | null> {
  const stored = await records.getRun(runId);
  if (!stored) return null;
  const { state, ...run } = stored;
  const storedDataset = (await records.getDataset(run.datasetId)) ?? null;
  // Where the runner read it is this machine's path: a bundle goes to others without it.
  const { folder: _here, ...dataset } = storedDataset ?? {};
  const endpoints = storedEndpoints(run.endpoints);
  const head = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    exportedAt,
    run: { ...run, endpoints, ...(state ? { state } : {}) },
    dataset: storedDataset ? dataset : null,
  };
  return (async function* () {
    let piece = JSON.stringify(head).slice(0, -1);
    for (const kind of RUN_DATA_STORES) {
      piece += `,${JSON.stringify(kind)}:[`;
      let first = true;
      for await (const page of records.rowPages(runId, kind, PAGE_ROWS)) {
        for (const row of page) {
          piece += (first ? '' : ',') + JSON.stringify(row);
          first = false;
        }
        if (piece.length >= PIECE_CHARS) {
          yield piece;
          piece = '';
        }
      }
      piece += ']';
    }
    yield `${piece}}`;
  })();
}
