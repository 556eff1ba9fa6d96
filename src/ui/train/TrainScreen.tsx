import { useEffect, useMemo, useState } from 'react';
import { tierPriceFactor } from '../../core/service-tier';
import { trainer } from '../../client/trainer-client';
import { setApp, useApp } from '../../store/app-store';
import { DEFAULT_RUN_CONFIG, deriveSteps, scaledDefaults, validateRunConfig, type RunConfig } from '../../core/run-config';
import { SCHEDULE_KINDS, scheduleSequence } from '../../core/schedules';
import { GATE_METRICS } from '../../core/gate';
import type { CostEstimate, DatasetListItem } from '../../worker/api-types';
import { effectivePrices } from '../../store/effective-prices';
import { Alert, Card, Field, NumberField } from '../common/Field';
import { KNOB_HELP } from './knobs';
import { RunDashboard } from './RunDashboard';
import { RunAlong } from './RunAlong';
import { CompletedExport } from './CompletedExport';
import { callStageLabel } from '../../core/stages';
import { GATE_RULE_LABELS, GATE_RULES } from '../../core/gate-rules';
import { UPDATE_MODE_LABELS, UPDATE_MODES } from '../../core/update-modes';
import { ReviewPanel } from './ReviewPanel';
import { NoiseAdvice } from './NoiseAdvice';
import { cancelRun, pauseRun, resumeRun, startTraining } from '../../client/run-controller';

function patch(p: Partial<RunConfig>) {
  setApp((s) => ({ config: { ...s.config, ...p } }));
}

function Toggle({ label, hint, checked, onChange }: { label: string; hint: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="field">
      <label className="check">
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
        {label}
      </label>
      <small className="hint">{hint}</small>
    </div>
  );
}

export function TrainScreen() {
  const config = useApp((s) => s.config);
  const datasetId = useApp((s) => s.datasetId);
  const skill = useApp((s) => s.skill);
  const connection = useApp((s) => s.connection);
  // Primitive selectors: live events must not re-render the whole settings form.
  const liveStatus = useApp((s) => s.live?.status);
  const liveRunId = useApp((s) => s.live?.runId);
  const starting = useApp((s) => s.live?.starting === true);
  const liveReason = useApp((s) => s.live?.reason);
  const liveReasonKind = useApp((s) => s.live?.reasonKind);
  const problemShown = useApp((s) => s.problem !== null);
  const [datasets, setDatasets] = useState<DatasetListItem[]>([]);
  const [estimate, setEstimate] = useState<CostEstimate | null>(null);
  const [resumeBudget, setResumeBudget] = useState<number | undefined>(undefined);
  const dataset = datasets.find((d) => d.id === datasetId);
  const prices = useMemo(() => effectivePrices(connection), [connection]);
  const batchOneShot = Boolean(connection.target.batchApi);
  // The same run at list prices, when a service tier or the batch API changes them: the estimate shows the saving.
  const listPrices = useMemo(() => {
    const tiered = [connection.target, connection.optimizer].some((e) => tierPriceFactor(e.serviceTier) !== 1);
    const { target, optimizer } = connection;
    return tiered || target.batchApi ? effectivePrices({ ...connection, target: { ...target, serviceTier: undefined }, optimizer: { ...optimizer, serviceTier: undefined } }) : null;
  }, [connection]);
  const [listCost, setListCost] = useState<number | null>(null);

  useEffect(() => {
    void trainer().listDatasets().then(setDatasets);
  }, [datasetId]);

  useEffect(() => {
    if (!datasetId) return;
    const t = setTimeout(() => {
      void trainer()
        .estimateCost({
          datasetId,
          config,
          skill,
          batchOneShot,
          prices: { ...(prices.target ? { target: prices.target } : {}), ...(prices.optimizer ? { optimizer: prices.optimizer } : {}) },
        })
        .then((r) => setEstimate(r.ok ? r.estimate : null));
      if (listPrices)
        void trainer()
          .estimateCost({ datasetId, config, skill, prices: listPrices })
          .then((r) => setListCost(r.ok ? r.estimate.totalCostUsd : null));
      else setListCost(null);
    }, 250);
    return () => clearTimeout(t);
  }, [datasetId, config, skill, prices, listPrices, batchOneShot]);

  const problems = validateRunConfig(config);
  // Buttons follow the status the worker reported; while a start is on its way none is offered twice.
  const running = liveStatus === 'running';
  const resumable = Boolean(liveRunId) && !starting && (liveStatus === 'paused' || liveStatus === 'interrupted');
  const steps = dataset ? deriveSteps(config, dataset.counts.train) : null;
  const schedule = steps ? scheduleSequence(config.editBudgetSchedule, config.editBudget, config.minEditBudget, Math.min(steps.totalSteps, 40)) : [];
  const scaleForData = () => dataset && patch({ ...DEFAULT_RUN_CONFIG, scorer: config.scorer, rollout: config.rollout, budget: config.budget, ...scaledDefaults(dataset.counts.train) });

  // Run events re-render this screen (status, reason); the settings form and the estimate table
  // only change with their own inputs, so they are kept as they are in between (a long task otherwise).
  const settingsCard = useMemo(
    () => (
        <Card title="Settings" actions={dataset && <button type="button" className="ghost" onClick={scaleForData}>Defaults for this dataset</button>}>
          <div className="grid-3">
            <NumberField label="Epochs" hint={KNOB_HELP.epochs} value={config.epochs} min={1} onChange={(v) => patch({ epochs: v ?? 1 })} />
            <NumberField label="Batch size" hint={KNOB_HELP.batchSize} value={config.batchSize} min={1} onChange={(v) => patch({ batchSize: v ?? 1 })} />
            <NumberField label="Accumulation" hint={KNOB_HELP.accumulation} value={config.accumulation} min={1} max={64} onChange={(v) => patch({ accumulation: v ?? 1 })} />
            <NumberField label="Minibatch size" hint={KNOB_HELP.minibatchSize} value={config.minibatchSize} min={1} onChange={(v) => patch({ minibatchSize: v ?? 1 })} />
            <Field label="Update mode" hint={KNOB_HELP.updateMode}>
              {(id, hintId) => (
                <select id={id} aria-describedby={hintId} value={config.updateMode ?? 'patch'} onChange={(e) => patch({ updateMode: e.target.value as RunConfig['updateMode'] })}>
                  {UPDATE_MODES.map((k) => (
                    <option key={k} value={k}>
                      {UPDATE_MODE_LABELS[k]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <NumberField label="Edit budget" hint={KNOB_HELP.editBudget} value={config.editBudget} min={1} onChange={(v) => patch({ editBudget: v ?? 1 })} />
            <NumberField label="Minimum edit budget" hint={KNOB_HELP.minEditBudget} value={config.minEditBudget} min={0} onChange={(v) => patch({ minEditBudget: v ?? 0 })} />
            <Field label="Edit budget schedule" hint={`${KNOB_HELP.schedule}${schedule.length ? ` Budgets: ${schedule.join(', ')}${steps && steps.totalSteps > 40 ? ', …' : ''}.` : ''}`}>
              {(id, hintId) => (
                <select id={id} aria-describedby={hintId} value={config.editBudgetSchedule} onChange={(e) => patch({ editBudgetSchedule: e.target.value as RunConfig['editBudgetSchedule'] })}>
                  {SCHEDULE_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {k}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Edit budget control" hint="Fixed: the schedule sets each step’s budget. Autonomous: the optimizer decides how many edits to apply, from the evidence of the step (one extra call per step).">
              {(id, hintId) => (
                <select id={id} aria-describedby={hintId} value={config.lrControlMode} onChange={(e) => patch({ lrControlMode: e.target.value as RunConfig['lrControlMode'] })}>
                  <option value="fixed">fixed schedule</option>
                  <option value="autonomous">autonomous</option>
                </select>
              )}
            </Field>
            <Field label="Gate metric" hint={KNOB_HELP.gateMetric}>
              {(id, hintId) => (
                <select id={id} aria-describedby={hintId} value={config.gateMetric} onChange={(e) => patch({ gateMetric: e.target.value as RunConfig['gateMetric'] })}>
                  {GATE_METRICS.map((k) => (
                    <option key={k} value={k}>
                      {k}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Gate rule" hint={KNOB_HELP.gateRule}>
              {(id, hintId) => (
                <select id={id} aria-describedby={hintId} value={config.gateRule ?? 'mean'} onChange={(e) => patch({ gateRule: e.target.value as RunConfig['gateRule'] })}>
                  {GATE_RULES.map((k) => (
                    <option key={k} value={k}>
                      {GATE_RULE_LABELS[k]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {config.gateRule === 'significance' && (
              <NumberField label="Significance k" hint={KNOB_HELP.gateSignificanceK} value={config.gateSignificanceK} min={0} max={10} step={0.5} onChange={(v) => patch({ gateSignificanceK: v ?? 1 })} />
            )}
            <NumberField label="Target concurrency" hint={KNOB_HELP.targetConcurrency} value={config.targetConcurrency} min={1} onChange={(v) => patch({ targetConcurrency: v ?? 1 })} />
            <NumberField label="Optimizer concurrency" hint={KNOB_HELP.optimizerConcurrency} value={config.optimizerConcurrency} min={1} onChange={(v) => patch({ optimizerConcurrency: v ?? 1 })} />
            <NumberField label="Seed" hint={KNOB_HELP.seed} value={config.seed} onChange={(v) => patch({ seed: v ?? 42 })} />
            <NumberField label="Merge batch size" hint={KNOB_HELP.mergeBatchSize} value={config.mergeBatchSize} min={2} onChange={(v) => patch({ mergeBatchSize: v ?? 2 })} />
            <NumberField label="Validation limit" hint={KNOB_HELP.selectionLimit} value={config.selectionLimit} min={0} onChange={(v) => patch({ selectionLimit: v ?? 0 })} />
            <Toggle label="Slow update" hint={KNOB_HELP.slowUpdate} checked={config.useSlowUpdate} onChange={(v) => patch({ useSlowUpdate: v })} />
            <Toggle label="Meta skill" hint={KNOB_HELP.metaSkill} checked={config.useMetaSkill} onChange={(v) => patch({ useMetaSkill: v })} />
            <Toggle label="Validation gate" hint={KNOB_HELP.useGate} checked={config.useGate} onChange={(v) => patch({ useGate: v })} />
            <Toggle label="Gate the slow update" hint={KNOB_HELP.slowUpdateGated} checked={config.slowUpdateGated} onChange={(v) => patch({ slowUpdateGated: v })} />
            <Toggle label="Early-stopped gate" hint={KNOB_HELP.earlyStop} checked={config.earlyStopGate} onChange={(v) => patch({ earlyStopGate: v })} />
            <Toggle label="Screen edits before ranking" hint={KNOB_HELP.screenEdits} checked={config.screenEdits} onChange={(v) => patch({ screenEdits: v })} />
            <Toggle label="Train-batch check" hint={KNOB_HELP.trainCheck} checked={config.trainCheck} onChange={(v) => patch({ trainCheck: v })} />
            <Toggle label="Repair bundles" hint={KNOB_HELP.repairEdits} checked={config.repairEdits} onChange={(v) => patch({ repairEdits: v })} />
            <Toggle label="Carry promising edits" hint={KNOB_HELP.carryEdits} checked={config.carryEdits} onChange={(v) => patch({ carryEdits: v })} />
            <Toggle label="Validation tie-break" hint={KNOB_HELP.tieBreak} checked={config.tieBreak} onChange={(v) => patch({ tieBreak: v })} />
            <Toggle label="Settle noisy verdicts" hint={KNOB_HELP.settleVerdicts} checked={config.settleVerdicts !== false} onChange={(v) => patch({ settleVerdicts: v })} />
            <NumberField label="Samples per item" hint={KNOB_HELP.maxSamples} value={config.maxSamples ?? 3} min={1} max={16} onChange={(v) => patch({ maxSamples: v ?? 3 })} />
            <NumberField label="Noise probe" hint={KNOB_HELP.noiseProbe} value={config.noiseProbe ?? 16} min={0} max={1000} onChange={(v) => patch({ noiseProbe: v ?? 0 })} />
            <NumberField label="Repair rounds" hint={KNOB_HELP.repairRounds} value={config.repairRounds ?? 2} min={1} max={5} onChange={(v) => patch({ repairRounds: v ?? 1 })} />
            <Toggle label="Leave-one-out blame" hint={KNOB_HELP.blameEdits} checked={config.blameEdits !== false} onChange={(v) => patch({ blameEdits: v })} />
            <Toggle label="Re-check a new best" hint={KNOB_HELP.recheckBest} checked={Boolean(config.recheckBest)} onChange={(v) => patch({ recheckBest: v })} />
            <NumberField label="Test repeats" hint={KNOB_HELP.testRepeats} value={config.testRepeats ?? 1} min={1} max={10} onChange={(v) => patch({ testRepeats: v ?? 1 })} />
            <Toggle label="Review edits before the gate" hint={KNOB_HELP.reviewEdits} checked={Boolean(config.reviewEdits)} onChange={(v) => patch({ reviewEdits: v })} />
            <Toggle label="Failures only" hint={KNOB_HELP.failureOnly} checked={config.failureOnly} onChange={(v) => patch({ failureOnly: v })} />
            <Toggle label="Score no skill on test" hint={KNOB_HELP.testNoSkill} checked={config.testNoSkill !== false} onChange={(v) => patch({ testNoSkill: v })} />
            <Toggle label="Skill-aware reflection" hint={KNOB_HELP.skillAwareReflection} checked={Boolean(config.skillAwareReflection)} onChange={(v) => patch({ skillAwareReflection: v })} />
            {config.skillAwareReflection && (
              <>
                <Field label="Reminders from" hint={KNOB_HELP.appendixSource}>
                  {(id, hintId) => (
                    <select id={id} aria-describedby={hintId} value={config.appendixSource ?? 'failure_only'} onChange={(e) => patch({ appendixSource: e.target.value as RunConfig['appendixSource'] })}>
                      <option value="failure_only">failure analysts only</option>
                      <option value="both">failure and success analysts</option>
                    </select>
                  )}
                </Field>
                <NumberField label="Compact reminders above" hint={KNOB_HELP.appendixConsolidateThreshold} value={config.appendixConsolidateThreshold ?? 40} min={0} onChange={(v) => patch({ appendixConsolidateThreshold: v ?? 0 })} />
              </>
            )}
            <Field label="Longitudinal pairs" hint="Which before/after pairs the epoch review sees: all, only changed ones (topped up), or only unchanged ones.">
              {(id, hintId) => (
                <select id={id} aria-describedby={hintId} value={config.pairPolicy} onChange={(e) => patch({ pairPolicy: e.target.value as RunConfig['pairPolicy'] })}>
                  <option value="mixed">mixed (all)</option>
                  <option value="changed">changed</option>
                  <option value="unchanged">unchanged</option>
                </select>
              )}
            </Field>
            <NumberField label="Budget cap (USD)" hint={KNOB_HELP.budget} value={config.budget.usd} min={0} step={0.5} placeholder="no cap" onChange={(v) => patch({ budget: { ...config.budget, usd: v || undefined } })} />
          </div>
        </Card>
    ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- derived values (steps, schedule) follow config and dataset
    [config, dataset],
  );
  const estimateCard = useMemo(
    () => (
      <>
        {estimate && (
          <Card title="Cost estimate (upper bound)">
            <table className="table">
              <thead>
                <tr>
                  <th>Stage</th>
                  <th className="num">Calls</th>
                  <th className="num">Prompt tokens</th>
                  <th className="num">Completion tokens</th>
                  <th className="num">Cost</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(estimate.stages).map(([stage, e]) => (
                  <tr key={stage}>
                    <td>{callStageLabel(stage)}</td>
                    <td className="num">{e!.calls.toLocaleString()}</td>
                    <td className="num">{e!.promptTokens.toLocaleString()}</td>
                    <td className="num">{e!.completionTokens.toLocaleString()}</td>
                    <td className="num">{e!.costUsd === null ? '—' : `$${e!.costUsd.toFixed(3)}`}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td>Total</td>
                  <td className="num">{estimate.totalCalls.toLocaleString()}</td>
                  <td className="num" colSpan={2}>
                    {estimate.totalTokens.toLocaleString()} tokens
                  </td>
                  <td className="num">{estimate.totalCostUsd === null ? 'set prices on Connect' : `$${estimate.totalCostUsd.toFixed(2)}`}</td>
                </tr>
              </tfoot>
            </table>
            {listCost !== null && estimate.totalCostUsd !== null && listCost > estimate.totalCostUsd && (
              <p className="muted">
                Service tiers and the batch API (Connect) save about ${(listCost - estimate.totalCostUsd).toFixed(2)} of ${listCost.toFixed(2)} at list prices.
              </p>
            )}
            <ul className="muted small">
              {estimate.assumptions.map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ul>
          </Card>
        )}
      </>
    ),
    [estimate, listCost],
  );

  return (
    <div className="screen">
      <h1>Train the skill</h1>
      {!dataset && <p className="lead">Choose a dataset first (Data), then come back to set up training.</p>}
      {dataset && (
        <p className="lead">
          {dataset.name}: {dataset.counts.train} train, {dataset.counts.val} validation, {dataset.counts.test} test items.
          {steps && ` ${steps.stepsPerEpoch} step${steps.stepsPerEpoch === 1 ? '' : 's'} per epoch, ${steps.totalSteps} in all.`}
        </p>
      )}

      <RunDashboard />
      {liveStatus === 'completed' && liveRunId && <CompletedExport key={liveRunId} runId={liveRunId} />}
      {liveReason && liveStatus !== 'running' && liveStatus !== 'completed' && liveReasonKind !== 'user' && liveReasonKind !== 'review' && !problemShown && <Alert>{liveReason}</Alert>}
      {liveStatus === 'paused' && liveReasonKind === 'review' && liveRunId && !starting && <ReviewPanel key={`${liveRunId}-${liveReason}`} runId={liveRunId} />}

      <div className="actions-bar">
        {!running && (
          <button type="button" className="primary" onClick={() => void startTraining()} disabled={!dataset || problems.length > 0 || starting}>
            {starting ? 'Starting…' : 'Start training'}
          </button>
        )}
        {running && (
          <button type="button" onClick={() => void pauseRun()}>
            Pause
          </button>
        )}
        {/* A run waiting for a review continues from the review panel, with a decision. */}
        {resumable && liveReasonKind !== 'review' && (
          <>
            <button type="button" className="primary" onClick={() => void resumeRun(liveRunId!, resumeBudget !== undefined ? { budgetUsd: resumeBudget } : undefined)}>
              Resume
            </button>
            {liveReasonKind === 'budget' && <NumberField label="New budget cap (USD)" value={resumeBudget} min={0} step={0.5} onChange={setResumeBudget} />}
          </>
        )}
        {(running || resumable) && (
          <button type="button" className="danger" onClick={() => void cancelRun()}>
            Cancel
          </button>
        )}
      </div>

      <RunAlong />

      {problems.length > 0 && (
        <Alert>
          <ul>
            {problems.map((p) => (
              <li key={p.message}>{p.message}</li>
            ))}
          </ul>
        </Alert>
      )}

      {settingsCard}

      {dataset && <NoiseAdvice validation={config.selectionLimit > 0 ? Math.min(config.selectionLimit, dataset.counts.val) : dataset.counts.val} estimate={estimate} budgetUsd={config.budget.usd} steps={steps?.totalSteps ?? 0} />}

      {estimateCard}
    </div>
  );
}
