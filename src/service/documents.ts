/**
 * Files made from a stored run, the same from either host: the evals file (the run's dataset as
 * an Agent Skills evals/evals.json, its split and lift as metadata) and the run bundle (written
 * piece by piece), and bundles taken in (validated whole first; a new run, read-only until bound).
 */
import { toEvalsFile, type EvalsFile } from '../core/report/evals-export';
import { MAX_BUNDLE_CHARS, parseBundle } from '../storage/bundle';
import { bundlePieces } from './bundle-pieces';
import { fail, type Outcome, type ServiceDeps } from './ports';

/** The evals file of a run; named after the skill (its SKILL.md name, its package's), else the run. */
export async function exportEvals(deps: ServiceDeps, runId: string): Promise<Outcome<{ evals: EvalsFile }>> {
  const run = await deps.records.getRun(runId);
  if (!run) return fail('not_found', `That run is not in ${deps.place}.`);
  const dataset = await deps.records.getDataset(run.datasetId);
  if (!dataset) return fail('not_found', `The run’s dataset is no longer in ${deps.place}.`);
  const summary = run.state?.summary;
  const evals = toEvalsFile({
    skillName: run.skillMeta?.name || run.skillPackage?.name || run.name,
    items: dataset.items,
    splits: dataset.splits,
    runName: run.name,
    tests: summary?.tests,
    lift: summary?.lift,
    ...(dataset.tools?.length ? { tools: dataset.tools } : {}),
  });
  return { ok: true, evals };
}

/** The run bundle's text in pieces of a few MB (the page makes a Blob of them, the runner a file). */
export async function exportBundle(
  deps: ServiceDeps,
  runId: string,
): Promise<Outcome<{ pieces: AsyncIterable<string> }>> {
  const pieces = await bundlePieces(deps.records, runId, new Date(deps.now()).toISOString());
  return pieces ? { ok: true, pieces } : fail('not_found', `That run is not in ${deps.place}.`);
}

/**
 * Take a bundle in: validated whole first (a malformed one is refused with the reason and stores
 * nothing), then stored as a new run, read-only until bound. `needsDataset`: the store has no
 * datasets of its own to fall back on (the runner's folder).
 */
export async function importBundle(
  deps: ServiceDeps,
  text: string,
  o: { needsDataset?: boolean } = {},
): Promise<Outcome<{ runId: string; renamed: boolean }>> {
  if (text.length > MAX_BUNDLE_CHARS)
    return fail('invalid_bundle', `The file is larger than ${MAX_BUNDLE_CHARS / 1024 / 1024} MB.`);
  const parsed = parseBundle(text);
  if (!parsed.ok) return fail('invalid_bundle', parsed.error);
  if (o.needsDataset && !parsed.bundle.dataset)
    return fail('invalid_bundle', 'The bundle holds no dataset: export the run again with its dataset.');
  const r = await deps.records.importBundle(parsed.bundle, deps.newId);
  return r.ok ? { ok: true, runId: r.runId, renamed: r.renamed } : fail('invalid_bundle', r.error);
}
