// The store ports' contract suites (test/support/store-contracts.ts) over every adapter: the
// engine's RunStore in IndexedDB, the runner's file and memory; the run service's RunRecords in
// IndexedDB (the page) and the runner's file.
import 'fake-indexeddb/auto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSkillwrightDb } from '../../src/storage/open-db';
import { IdbRunStore } from '../../src/storage/idb-run-store';
import { IdbRunRecords } from '../../src/storage/idb-run-records';
import { FileRunStore } from '../../src/storage/file-store';
import { FileRunRecords } from '../../src/storage/file-run-records';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { putRun } from '../../src/storage/runs-repo';
import { dataset, runRecord, runRecordsContract, runStoreContract } from '../support/store-contracts';

let n = 0;
const freshDb = () => openSkillwrightDb(`store-contract-${++n}`);
const freshFile = () => join(mkdtempSync(join(tmpdir(), 'sw-contract-')), 'run.jsonl');

runStoreContract('memory', async () => ({ store: new MemoryRunStore() }));

runStoreContract('IndexedDB', async () => {
  const name = `store-contract-${++n}`;
  const db = await openSkillwrightDb(name);
  await putRun(db, runRecord()); // the engine's state lives in its run's record
  return { store: new IdbRunStore(db), reopen: async () => new IdbRunStore(await openSkillwrightDb(name)) };
});

runStoreContract('the runner’s file', async () => {
  const path = freshFile();
  return { store: FileRunStore.open(path), reopen: async () => FileRunStore.open(path) };
});

async function idbRecords() {
  const records = new IdbRunRecords(await freshDb());
  return records;
}

runRecordsContract('IndexedDB', async () => {
  const records = await idbRecords();
  await records.putDataset(dataset());
  await records.putRun(runRecord());
  return { records, empty: idbRecords };
});

runRecordsContract('the runner’s file', async () => {
  const records = new FileRunRecords(FileRunStore.open(freshFile()));
  await records.putDataset(dataset());
  await records.putRun(runRecord());
  return { records, empty: async () => new FileRunRecords(FileRunStore.open(freshFile())) };
});
