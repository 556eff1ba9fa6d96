// Issue #10 item 6: a dataset file crosses to the worker once and is parsed once; the user's
import 'fake-indexeddb/auto';
// choices (mapping, shares, seed) are checked against the staged rows, then committed.
import { describe, expect, it } from 'vitest';
import { openTab, WORLD_TEXT } from '../support/api-harness';
import { MAX_DATASET_BYTES } from '../../src/core/dataset/dataset-parse';

const CSV = 'prompt,gold,alt\nq1,a1,x1\nq2,a2,x2\nq3,a3,x3\nq4,a4,x4\n';

describe('dataset staging', () => {
  it('stages a file once, re-checks it under new shares and seeds, and stores what was chosen last', async () => {
    const tab = await openTab();
    const staged = await tab.remote.stageDataset(new Blob([WORLD_TEXT]), { fileName: 'world.json', ratio: [2, 1, 2] });
    expect(staged).toMatchObject({ ok: true, counts: { train: 40, val: 20, test: 40 }, format: 'json' });
    const draftId = staged.draftId!;
    expect(draftId).toBeTruthy();
    const other = await tab.remote.inspectStaged(draftId, { ratio: [1, 1, 2] });
    expect(other).toMatchObject({ ok: true, counts: { train: 25, val: 25, test: 50 } });
    const seedA = await tab.remote.inspectStaged(draftId, { ratio: [1, 1, 2], splitSeed: 1 });
    const seedB = await tab.remote.inspectStaged(draftId, { ratio: [1, 1, 2], splitSeed: 2 });
    if (!seedA.ok || !seedB.ok) throw new Error('inspection failed');
    const valIds = (items: { id: string; split?: string }[]) => items.filter((i) => i.split === 'val').map((i) => i.id).sort();
    expect(valIds(seedA.preview!)).not.toEqual(valIds(seedB.preview!));
    expect(await tab.remote.listDatasets()).toEqual([]); // staging and inspecting store nothing

    const stored = await tab.remote.commitStaged(draftId, { name: 'World', ratio: [1, 1, 2], splitSeed: 2 });
    expect(stored).toMatchObject({ ok: true, dataset: { name: 'World', counts: { train: 25, val: 25, test: 50 } } });
    if (!stored.ok) return;
    const val = await tab.remote.getDatasetItems(stored.dataset.id, 'val', 0, 100);
    expect(val.ok && val.items.map((i) => i.id).sort()).toEqual(valIds(seedB.preview!));
    // The draft is gone once committed: a second commit says so instead of storing twice.
    expect(await tab.remote.commitStaged(draftId, { name: 'Again' })).toMatchObject({ ok: false, error: { kind: 'not_found', message: expect.stringMatching(/open it again/) } });
    expect(await tab.remote.listDatasets()).toHaveLength(1);
    tab.close();
  });

  it('maps fields after staging: a CSV without recognisable columns is refused, then stored once mapped', async () => {
    const tab = await openTab();
    const staged = await tab.remote.stageDataset(new Blob([CSV]), { fileName: 'd.csv' });
    expect(staged).toMatchObject({ ok: false, fieldNames: ['prompt', 'gold', 'alt'], problems: [{ where: 'row 1', message: expect.stringMatching(/no question and answer columns/) }] });
    const draftId = staged.draftId!;
    const unknown = await tab.remote.inspectStaged(draftId, { mapping: { question: 'prompt', expected: 'nope' } });
    expect(unknown).toMatchObject({ ok: false, problems: [{ field: 'nope', message: expect.stringMatching(/is mapped to expected/) }] });
    const mapped = { question: 'prompt', expected: 'gold' };
    expect(await tab.remote.inspectStaged(draftId, { mapping: mapped, ratio: [2, 1, 1] })).toMatchObject({ ok: true, counts: { train: 2, val: 1, test: 1 } });
    const stored = await tab.remote.commitStaged(draftId, { name: 'CSV', mapping: mapped, ratio: [2, 1, 1] });
    expect(stored.ok).toBe(true);
    if (stored.ok) {
      const items = await tab.remote.getDatasetItems(stored.dataset.id, 'all', 0, 10);
      expect(items.ok && items.items.map((i) => [i.question, i.answers[0]]).sort()).toEqual([['q1', 'a1'], ['q2', 'a2'], ['q3', 'a3'], ['q4', 'a4']]);
    }
    tab.close();
  });

  it('refuses a file over the size limit by its size, without reading it', async () => {
    const tab = await openTab();
    let read = false;
    const huge = { size: MAX_DATASET_BYTES + 1, text: async () => ((read = true), '[]') } as unknown as Blob;
    const r = await tab.api.stageDataset(huge, { fileName: 'huge.json' });
    expect(r).toMatchObject({ ok: false, problems: [{ message: 'the file is larger than 100 MB' }] });
    expect(r.draftId).toBeUndefined();
    expect(read).toBe(false);
    tab.close();
  });

  it('keeps only the latest drafts: an abandoned file is dropped when others are staged', async () => {
    const tab = await openTab();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await tab.remote.stageDataset(new Blob([WORLD_TEXT]), {})).draftId!);
    expect(await tab.remote.inspectStaged(ids[0], {})).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    expect(await tab.remote.inspectStaged(ids[2], {})).toMatchObject({ ok: true });
    await tab.remote.discardStaged(ids[2]);
    expect(await tab.remote.inspectStaged(ids[2], {})).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    tab.close();
  });
});
