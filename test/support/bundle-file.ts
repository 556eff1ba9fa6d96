/** A stored run's bundle as a Blob, as the page's worker makes it (the pieces of storage/bundle.ts, each a part). */
import { bundlePieces } from '../../src/service/bundle-pieces';
import { IdbRunRecords } from '../../src/storage/idb-run-records';
import type { SkillwrightDb } from '../../src/storage/open-db';

export async function exportRunFile(db: SkillwrightDb, runId: string, exportedAt = new Date().toISOString()): Promise<Blob | null> {
  const pieces = await bundlePieces(new IdbRunRecords(db), runId, exportedAt);
  if (!pieces) return null;
  const parts: Blob[] = [];
  for await (const piece of pieces) parts.push(new Blob([piece]));
  return new Blob(parts, { type: 'application/json' });
}
