/**
 * Opening the database, with one upgrade step per version (an `oldVersion` cascade, as the idb
 * README recommends). Each step must work on a database left by the one before it.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { DB_NAME, DB_VERSION, datasetIndexOf, type SkillwrightDB } from './schema';

export type SkillwrightDb = IDBPDatabase<SkillwrightDB>;

export function openSkillwrightDb(name = DB_NAME): Promise<SkillwrightDb> {
  return openDB<SkillwrightDB>(name, DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, tx) {
      if (oldVersion < 1) {
        // Version 1: the first shipped schema.
        db.createObjectStore('datasets', { keyPath: 'id' }).createIndex('by-created', 'createdAt');
        const runs = db.createObjectStore('runs', { keyPath: 'id' });
        runs.createIndex('by-status', 'status');
        db.createObjectStore('steps', { keyPath: ['runId', 'step'] }).createIndex('by-run', 'runId');
        const rollouts = db.createObjectStore('rollouts', { keyPath: ['runId', 'phase', 'order'] });
        rollouts.createIndex('by-run', 'runId');
        rollouts.createIndex('by-run-phase', ['runId', 'phase']);
        db.createObjectStore('calls', { keyPath: ['runId', 'key'] }).createIndex('by-run', 'runId');
        db.createObjectStore('artifacts', { keyPath: ['runId', 'key'] }).createIndex('by-run', 'runId');
        db.createObjectStore('settings', { keyPath: 'key' });
      }
      if (oldVersion < 2) {
        // Version 2: the rollout cache and skill+item lookups get indexes; runs are listed by
        // last update; runs from version 1 get a name.
        const rollouts = tx.objectStore('rollouts');
        rollouts.createIndex('by-cache', ['runId', 'cacheKey']);
        rollouts.createIndex('by-skill-item', ['runId', 'skillHash', 'itemId']);
        const runs = tx.objectStore('runs');
        runs.createIndex('by-updated', 'updatedAt');
        void runs.openCursor().then(async function name(cursor): Promise<void> {
          if (!cursor) return;
          const r = cursor.value;
          if (!r.name)
            await cursor.update({ ...r, name: `Run of ${new Date(r.createdAt).toISOString().slice(0, 10)}` });
          return name(await cursor.continue());
        });
      }
      if (oldVersion < 3) {
        // Version 3: a light index of datasets, so that listing them never reads their items.
        const index = db.createObjectStore('datasetIndex', { keyPath: 'id' });
        index.createIndex('by-created', 'createdAt');
        if (oldVersion >= 1) {
          void tx
            .objectStore('datasets')
            .openCursor()
            .then(async function copy(cursor): Promise<void> {
              if (!cursor) return;
              await tx.objectStore('datasetIndex').put(datasetIndexOf(cursor.value));
              return copy(await cursor.continue());
            });
        }
      }
      if (oldVersion < 4) {
        // Version 4: skill versions keyed by origin, not by hash: a text that recurs (a step that
        // undoes another) is a version of its own, or the chain of versions breaks (issue #20 item 8).
        const create = () =>
          db.createObjectStore('skills', { keyPath: ['runId', 'origin'] }).createIndex('by-run', 'runId');
        if (oldVersion < 1) create();
        else {
          void tx
            .objectStore('skills')
            .getAll()
            .then((old) => {
              db.deleteObjectStore('skills');
              create();
              for (const v of old) void tx.objectStore('skills').put(v);
            });
        }
      }
    },
  });
}
