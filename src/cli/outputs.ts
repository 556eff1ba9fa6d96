/**
 * What a run leaves in its `--out` folder: the best skill (a file, or a package as a .zip and a
 * folder), the run bundle, the HTML report and, for a package, its evals. The same writer checks,
 * before anything is spent, that the folder can hold them (issue #28): a package tree the file
 * system cannot hold, or records that break the report, are named then — not after the paid run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toEvalsFile } from '../core/evals-export';
import { runShell } from '../core/package-zip';
import { trainedDescription } from '../core/trigger-queries';
import type { TrainOutcome } from '../engine/run/trainer';
import { ConfigError } from './config';
import type { FileRunStore } from './file-store';
import { reportHtml } from './report';
import { writeBestSkill } from './skill-files';

/** Write the run's outputs into `out`; returns the best skill's paths, for the closing line. */
export async function writeOutputs(
  store: FileRunStore,
  out: string,
  summary: TrainOutcome['summary'],
  exportedAt: string,
): Promise<string[]> {
  const state = await store.loadState();
  const run = store.run!;
  const best = state?.gate.bestSkill ?? run.initialSkill;
  const shell = run.skillPackage && runShell(run.skillPackage, run.initialSkill);
  const written = writeBestSkill(out, best, shell, trainedDescription(state?.activation));
  writeFileSync(join(out, 'run-bundle.json'), JSON.stringify(store.toBundle(exportedAt)));
  writeFileSync(join(out, 'report.html'), await reportHtml(store));
  if (run.skillPackage) {
    // The cases the package was trained on travel beside it, with the lift as metadata.
    const evals = toEvalsFile({
      skillName: run.skillMeta?.name || run.skillPackage.name,
      items: store.dataset!.items,
      splits: store.dataset!.splits,
      runName: run.name,
      ...(summary?.tests ? { tests: summary.tests } : {}),
      ...(summary?.lift ? { lift: summary.lift } : {}),
    });
    writeFileSync(join(out, 'evals.json'), `${JSON.stringify(evals, null, 2)}\n`);
  }
  return written;
}

/** Write the outputs as they stand into a scratch folder inside `out`, then remove it; a failure is a ConfigError. */
export async function checkOutputs(store: FileRunStore, out: string, exportedAt: string): Promise<void> {
  const scratch = mkdtempSync(join(out, '.outputs-check-'));
  try {
    await writeOutputs(store, scratch, (await store.loadState())?.summary, exportedAt);
  } catch (e) {
    throw new ConfigError(
      `This run's outputs cannot be written in ${out}, so nothing was started: ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
