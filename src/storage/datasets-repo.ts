/** Datasets: stored whole once valid (the worker never stores a dataset with problems). */
import type { SkillwrightDb } from './open-db';
import { datasetIndexOf, type DatasetIndexRecord, type DatasetRecord } from './schema';
import { guardQuota } from './quota';

/** What a datasets list shows (`testLooks`: looks at the test split outside a run's final report). */
export type DatasetListItem = DatasetIndexRecord;

export const toDatasetItem = datasetIndexOf;

/**
 * Record a look at the test split (evaluating a skill on it), so the page can say how often it was
 * used. One transaction over the small index record: the dataset itself is never rewritten.
 */
export async function noteTestLook(db: SkillwrightDb, id: string, what: string, at: number): Promise<number> {
  const tx = db.transaction('datasetIndex', 'readwrite');
  const entry = await tx.store.get(id);
  if (!entry) {
    await tx.done;
    return 0;
  }
  const testLooks = entry.testLooks + 1;
  await tx.store.put({ ...entry, testLooks, testLookLog: [...(entry.testLookLog ?? []), { at, what }] });
  await tx.done;
  return testLooks;
}

/** Store a dataset and its index entry together. */
export async function putDataset(db: SkillwrightDb, d: DatasetRecord): Promise<void> {
  await guardQuota(async () => {
    const tx = db.transaction(['datasets', 'datasetIndex'], 'readwrite');
    await Promise.all([
      tx.objectStore('datasets').put(d),
      tx.objectStore('datasetIndex').put(datasetIndexOf(d)),
      tx.done,
    ]);
  });
}

export function getDataset(db: SkillwrightDb, id: string): Promise<DatasetRecord | undefined> {
  return db.get('datasets', id);
}

/** A dataset's index entry: its name and split sizes, without reading its items. */
export function getDatasetIndex(db: SkillwrightDb, id: string): Promise<DatasetIndexRecord | undefined> {
  return db.get('datasetIndex', id);
}

export async function listDatasets(db: SkillwrightDb): Promise<DatasetListItem[]> {
  return (await db.getAllFromIndex('datasetIndex', 'by-created')).reverse();
}

export async function deleteDataset(db: SkillwrightDb, id: string): Promise<void> {
  const tx = db.transaction(['datasets', 'datasetIndex'], 'readwrite');
  await Promise.all([tx.objectStore('datasets').delete(id), tx.objectStore('datasetIndex').delete(id), tx.done]);
}
