/**
 * What a run leaves in its `--out` folder: the best skill (a file, or a package as a .zip and a
 * folder), the run bundle, the HTML report and, for a package, its evals — the last three made by
 * the run service, as the page makes them. The same writer checks, before anything is spent,
 * that the folder can hold them (issue #28): a package tree the file system cannot hold, or
 * records that break the report, are named then — not after the paid run.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runShell } from '../core/skill/package-zip';
import { trainedDescription } from '../core/dataset/trigger-queries';
import type { RunService } from '../service/run-service';
import { ConfigError } from './config';
import { writeBestSkill } from './skill-files';

/** Write the run's outputs into `out`; returns the best skill's paths, for the closing line. */
export async function writeOutputs(service: RunService, runId: string, out: string): Promise<string[]> {
  const fail = (what: string) => new Error(`the run's ${what} could not be made`);
  const [evals, bundle, report] = await Promise.all([
    service.exportEvals(runId),
    service.exportBundle(runId),
    service.exportReport(runId),
  ]);
  if (!bundle.ok || report === null) throw fail('bundle or report');
  const run = await service.runRecord(runId);
  const state = run?.state;
  const best = state?.gate.bestSkill ?? run!.initialSkill;
  const shell = run!.skillPackage && runShell(run!.skillPackage, run!.initialSkill);
  const written = writeBestSkill(out, best, shell, trainedDescription(state?.activation));
  const bundlePath = join(out, 'run-bundle.json');
  writeFileSync(bundlePath, '');
  for await (const piece of bundle.pieces) appendFileSync(bundlePath, piece);
  writeFileSync(join(out, 'report.html'), report);
  // The cases a package was trained on travel beside it, with the lift as metadata.
  if (run!.skillPackage) {
    if (!evals.ok) throw fail('evals file');
    writeFileSync(join(out, 'evals.json'), `${JSON.stringify(evals.evals, null, 2)}\n`);
  }
  return written;
}

/** Write the outputs as they stand into a scratch folder inside `out`, then remove it; a failure is a ConfigError. */
export async function checkOutputs(service: RunService, runId: string, out: string): Promise<void> {
  const scratch = mkdtempSync(join(out, '.outputs-check-'));
  try {
    await writeOutputs(service, runId, scratch);
  } catch (e) {
    throw new ConfigError(
      `This run's outputs cannot be written in ${out}, so nothing was started: ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
