/** Datasets: stored whole once valid (the worker never stores a dataset with problems). */
import type { SkillwrightDb } from './open-db';
import type { DatasetRecord } from './schema';
import { guardQuota } from './quota';

export interface DatasetListItem {
  id: string;
  name: string;
  createdAt: number;
  format: DatasetRecord['format'];
  counts: { train: number; val: number; test: number };
  warnings: string[];
  /** Looks at the test split outside a run's final report. */
  testLooks: number;
}

export function toDatasetItem(d: DatasetRecord): DatasetListItem {
  return {
    id: d.id,
    name: d.name,
    createdAt: d.createdAt,
    format: d.format,
    counts: { train: d.splits.train.length, val: d.splits.val.length, test: d.splits.test.length },
    warnings: d.warnings,
    testLooks: d.testLooks?.length ?? 0,
  };
}

/** Record a look at the test split (evaluating a skill on it), so the page can say how often it was used. */
export async function noteTestLook(db: SkillwrightDb, id: string, what: string, at: number): Promise<number> {
  const d = await db.get('datasets', id);
  if (!d) return 0;
  const testLooks = [...(d.testLooks ?? []), { at, what }];
  await guardQuota(() => db.put('datasets', { ...d, testLooks }));
  return testLooks.length;
}

export async function putDataset(db: SkillwrightDb, d: DatasetRecord): Promise<void> {
  await guardQuota(() => db.put('datasets', d));
}

export function getDataset(db: SkillwrightDb, id: string): Promise<DatasetRecord | undefined> {
  return db.get('datasets', id);
}

export async function listDatasets(db: SkillwrightDb): Promise<DatasetListItem[]> {
  return (await db.getAllFromIndex('datasets', 'by-created')).reverse().map(toDatasetItem);
}

export async function deleteDataset(db: SkillwrightDb, id: string): Promise<void> {
  await db.delete('datasets', id);
}
