/**
 * A dataset as a run's store keeps it, made in one place for both hosts: the page's worker stores
 * a file a person opened, the runner the file its config names. Its id, name and the tools every
 * item is offered (the dataset's own and the runner's config's) follow one rule here.
 */
import type { Dataset } from '../core/dataset/dataset-types';
import { mergeTools, type ToolSpec } from '../core/agent/tool-spec';
import type { DatasetRecord } from '../storage/schema';
import type { HostDeps, ServiceDeps } from './ports';

export interface DatasetInput {
  name: string;
  fieldNames: string[];
  /** Tools offered to every item besides the dataset's own (the runner's config's `environment.tools`). */
  tools?: readonly ToolSpec[];
  /** The folder the runner read it from: its items' workspaces are found there (issue #42 item 4). */
  folder?: string;
}

/** The record of a built dataset: a fresh id (`ds-` and the host's new id), its name, the tools merged. */
export function datasetRecord(deps: Pick<HostDeps, 'newId' | 'now'>, d: Dataset, o: DatasetInput): DatasetRecord {
  const tools = mergeTools(d.tools, o.tools);
  const { tools: _own, ...rest } = d;
  return {
    ...rest,
    ...(tools.length ? { tools } : {}),
    id: `ds-${deps.newId().replace(/^[a-z]+-/, '')}`,
    name: o.name || 'Dataset',
    createdAt: deps.now(),
    fieldNames: o.fieldNames,
    ...(o.folder ? { folder: o.folder } : {}),
  };
}

/** Store a built dataset (one without problems: the caller checked it) as a new record. */
export async function createDataset(
  deps: ServiceDeps,
  d: Dataset,
  o: DatasetInput,
): Promise<{ ok: true; dataset: DatasetRecord }> {
  const dataset = datasetRecord(deps, d, o);
  await deps.records.putDataset(dataset);
  return { ok: true, dataset };
}
