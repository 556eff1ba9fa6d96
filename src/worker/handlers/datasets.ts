/** Datasets: inspect a file, store it, list, page through and delete. */
import { importDatasetText, type ImportOptions } from '../../core/dataset-import';
import { deleteDataset, getDataset, listDatasets, putDataset, toDatasetItem } from '../../storage/datasets-repo';
import type { WorkerApi } from '../api-types';
import { fail, type ApiContext } from './context';

export function datasetsHandlers(c: ApiContext): Pick<WorkerApi, 'inspectDataset' | 'importDataset' | 'listDatasets' | 'getDatasetItems' | 'deleteDataset'> {
  const { dbp, now, newId } = c;
  return {
    async inspectDataset(text, options) {
      const r = importDatasetText(text, options);
      if (!r.ok) {
        return {
          ok: false,
          fieldNames: r.fieldNames,
          mapping: r.mapping,
          format: r.format,
          problems: r.problems,
          truncated: r.truncated,
          error: { kind: 'invalid_dataset', message: `The file has ${r.problems.length}${r.truncated ? '+' : ''} problem${r.problems.length === 1 ? '' : 's'}.`, problems: r.problems, truncated: r.truncated },
        };
      }
      const d = r.dataset;
      return {
        ok: true,
        format: d.format,
        fieldNames: r.fieldNames,
        mapping: d.mapping,
        counts: { train: d.splits.train.length, val: d.splits.val.length, test: d.splits.test.length },
        preview: d.items.slice(0, 200),
        warnings: d.warnings,
      };
    },

    async importDataset(text, options) {
      const { name, ...opts } = options;
      const r = importDatasetText(text, opts as ImportOptions);
      if (!r.ok) return fail('invalid_dataset', `The file has ${r.problems.length}${r.truncated ? '+' : ''} problems; nothing was stored.`, { problems: r.problems, truncated: r.truncated });
      const record = { ...r.dataset, id: `ds-${newId().replace(/^run-/, '')}`, name: name || 'Dataset', createdAt: now(), fieldNames: r.fieldNames };
      await putDataset(await dbp, record);
      return { ok: true, dataset: toDatasetItem(record) };
    },

    async listDatasets() {
      return listDatasets(await dbp);
    },

    async getDatasetItems(id, split, offset, limit) {
      const d = await getDataset(await dbp, id);
      if (!d) return fail('not_found', 'That dataset is not in this browser.');
      const ids = split === 'all' ? null : new Set(d.splits[split]);
      const items = ids ? d.items.filter((i) => ids.has(i.id)) : d.items;
      return { ok: true, items: items.slice(offset, offset + limit), total: items.length };
    },

    async deleteDataset(id) {
      await deleteDataset(await dbp, id);
    },
  };
}
