/**
 * Datasets: a file is handed over once and parsed once (stage), checked under the user's
 * choices as often as they change them (inspect), then stored (commit); list, page, delete.
 */
import {
  buildStagedDataset,
  importDatasetText,
  stageDatasetText,
  type BuildChoices,
  type ImportResult,
  type StagedDataset,
} from '../../core/dataset/dataset-import';
import { MAX_DATASET_BYTES } from '../../core/dataset/dataset-parse';
import { deleteDataset, getDataset, listDatasets, toDatasetItem } from '../../storage/datasets-repo';
import type { DatasetCheck, Result, DatasetsApi } from '../api-types';
import type { DatasetListItem } from '../../storage/datasets-repo';
import { fail, type ApiContext } from './context';
import { inspectModule } from '../page-module-environment';
import { MAX_MODULE_BYTES } from '../../core/agent/environment-spec';
import { contentId } from '../../core/basics/hash';

/** Drafts kept at once: the page shows one file; an abandoned one is dropped when another comes. */
const MAX_DRAFTS = 2;

const plural = (n: number, truncated: boolean) => `${n}${truncated ? '+' : ''} problem${n === 1 ? '' : 's'}`;

/** An import outcome as the page sees it: counts and a preview, or the problems. */
function check(r: ImportResult): DatasetCheck {
  if (!r.ok) {
    const { fieldNames, mapping, format, problems, truncated } = r;
    const message = `The file has ${plural(problems.length, truncated)}.`;
    return {
      ok: false,
      fieldNames,
      mapping,
      format,
      problems,
      truncated,
      error: { kind: 'invalid_dataset', message, problems, truncated },
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
}

export function datasetsHandlers(c: ApiContext): DatasetsApi {
  const { dbp, newId } = c;
  const drafts = new Map<string, StagedDataset>();

  async function store(r: ImportResult, name: string): Promise<Result<{ dataset: DatasetListItem }>> {
    if (!r.ok)
      return fail('invalid_dataset', `The file has ${plural(r.problems.length, r.truncated)}; nothing was stored.`, {
        problems: r.problems,
        truncated: r.truncated,
      });
    const stored = await (await c.service).createDataset(r.dataset, { name, fieldNames: r.fieldNames });
    return { ok: true, dataset: toDatasetItem(stored.dataset) };
  }

  const gone = () =>
    fail('not_found', 'That file is no longer loaded here (the page or its worker restarted): open it again.');

  return {
    async stageDataset(file, options) {
      // Refused by its size alone, unread.
      if (file.size > MAX_DATASET_BYTES) {
        return check({
          ok: false,
          fieldNames: [],
          truncated: false,
          problems: [{ where: '', message: `the file is larger than ${MAX_DATASET_BYTES / 1024 / 1024} MB` }],
        });
      }
      const staged = stageDatasetText(await file.text(), options);
      if (!staged.ok) return check(staged);
      const draftId = `draft-${newId().replace(/^run-/, '')}`;
      drafts.set(draftId, staged.staged);
      for (const id of [...drafts.keys()].slice(0, -MAX_DRAFTS)) drafts.delete(id);
      return { ...check(buildStagedDataset(staged.staged, options)), draftId };
    },

    async inspectStaged(draftId, choices: BuildChoices) {
      const d = drafts.get(draftId);
      return d ? check(buildStagedDataset(d, choices)) : { ...gone(), fieldNames: [] };
    },

    async commitStaged(draftId, choices) {
      const d = drafts.get(draftId);
      if (!d) return gone();
      const r = await store(buildStagedDataset(d, choices), choices.name);
      if (r.ok) drafts.delete(draftId);
      return r;
    },

    async discardStaged(draftId) {
      drafts.delete(draftId);
    },

    async importDataset(text, options) {
      return store(importDatasetText(text, options), options.name);
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

    async inspectModule(source, fileName) {
      if (new TextEncoder().encode(source).length > MAX_MODULE_BYTES)
        return fail(
          'too_large',
          `The module is larger than ${MAX_MODULE_BYTES / 1024} KB: a module is code, not data.`,
        );
      const r = await inspectModule(source, () => c.sandboxes.current);
      if (!r.ok) return fail('invalid_module', `The environment module ${fileName} cannot be used: ${r.error}`);
      return {
        ok: true,
        module: { name: r.name, fileName, source, hash: contentId(source) },
        tools: r.tools,
        scores: r.scores,
      };
    },

    async useModuleSandboxes(sandboxes) {
      c.sandboxes.current = sandboxes;
    },
  };
}
