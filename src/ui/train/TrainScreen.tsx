import { useEffect, useMemo, useState } from 'react';
import { tierPriceFactor } from '../../core/service-tier';
import { trainer } from '../../client/trainer-client';
import { setApp, useApp } from '../../store/app-store';
import {
  DEFAULT_RUN_CONFIG,
  deriveSteps,
  scaledDefaults,
  validateRunConfig,
  type RunConfig,
} from '../../core/run-config';
import { scheduleSequence } from '../../core/schedules';
import { splitTriggerQueries } from '../../core/trigger-queries';
import { KnobFields } from './KnobFields';
import type { CostEstimate, DatasetListItem } from '../../worker/api-types';
import { effectivePrices } from '../../store/effective-prices';
import { Alert, Card, NumberField } from '../common/Field';
import { RunDashboard } from './RunDashboard';
import { RunAlong } from './RunAlong';
import { CompletedExport } from './CompletedExport';
import { callStageLabel } from '../../core/stages';
import { ReviewPanel } from './ReviewPanel';
import { NoiseAdvice } from './NoiseAdvice';
import { cancelRun, pauseRun, resumeRun, startTraining } from '../../client/run-controller';

function patch(p: Partial<RunConfig>) {
  setApp((s) => ({ config: { ...s.config, ...p } }));
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
    return tiered || target.batchApi
      ? effectivePrices({
          ...connection,
          target: { ...target, serviceTier: undefined },
          optimizer: { ...optimizer, serviceTier: undefined },
        })
      : null;
  }, [connection]);
  const [listCost, setListCost] = useState<number | null>(null);

  useEffect(() => {
    void trainer().listDatasets().then(setDatasets);
  }, [datasetId]);

  const triggerQueries = useApp((s) => s.triggerQueries);
  // The activation track's queries per split, as the run will split them (same seed, same counts).
  const triggers = useMemo(() => {
    if (!triggerQueries) return undefined;
    const s = splitTriggerQueries(triggerQueries.queries, config.seed);
    return { train: s.train.length, val: s.val.length, test: s.test.length };
  }, [triggerQueries, config.seed]);

  useEffect(() => {
    if (!datasetId) return;
    const t = setTimeout(() => {
      void trainer()
        .estimateCost({
          datasetId,
          config,
          skill,
          batchOneShot,
          ...(triggers ? { triggers } : {}),
          prices: {
            ...(prices.target ? { target: prices.target } : {}),
            ...(prices.optimizer ? { optimizer: prices.optimizer } : {}),
          },
        })
        .then((r) => setEstimate(r.ok ? r.estimate : null));
      if (listPrices)
        void trainer()
          .estimateCost({ datasetId, config, skill, prices: listPrices, ...(triggers ? { triggers } : {}) })
          .then((r) => setListCost(r.ok ? r.estimate.totalCostUsd : null));
      else setListCost(null);
    }, 250);
    return () => clearTimeout(t);
  }, [datasetId, config, skill, prices, listPrices, batchOneShot, triggers]);

  const problems = validateRunConfig(config);
  // Buttons follow the status the worker reported; while a start is on its way none is offered twice.
  const running = liveStatus === 'running';
  const resumable = Boolean(liveRunId) && !starting && (liveStatus === 'paused' || liveStatus === 'interrupted');
  const steps = dataset ? deriveSteps(config, dataset.counts.train) : null;
  const schedule = steps
    ? scheduleSequence(
        config.editBudgetSchedule,
        config.editBudget,
        config.minEditBudget,
        Math.min(steps.totalSteps, 40),
      )
    : [];
  const scaleForData = () =>
    dataset &&
    patch({
      ...DEFAULT_RUN_CONFIG,
      scorer: config.scorer,
      rollout: config.rollout,
      budget: config.budget,
      ...scaledDefaults(dataset.counts.train),
    });

  // Run events re-render this screen (status, reason); the settings form and the estimate table
  // only change with their own inputs, so they are kept as they are in between (a long task otherwise).
  const settingsCard = useMemo(
    () => (
      <Card
        title="Settings"
        actions={
          dataset && (
            <button type="button" className="ghost" onClick={scaleForData}>
              Defaults for this dataset
            </button>
          )
        }
      >
        <KnobFields
          config={config}
          patch={patch}
          extraHints={{
            editBudgetSchedule: schedule.length
              ? ` Budgets: ${schedule.join(', ')}${steps && steps.totalSteps > 40 ? ', …' : ''}.`
              : '',
          }}
        />
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
                  <td className="num">
                    {estimate.totalCostUsd === null ? 'set prices on Connect' : `$${estimate.totalCostUsd.toFixed(2)}`}
                  </td>
                </tr>
              </tfoot>
            </table>
            {listCost !== null && estimate.totalCostUsd !== null && listCost > estimate.totalCostUsd && (
              <p className="muted">
                Service tiers and the batch API (Connect) save about ${(listCost - estimate.totalCostUsd).toFixed(2)} of
                ${listCost.toFixed(2)} at list prices.
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
          {dataset.name}: {dataset.counts.train} train, {dataset.counts.val} validation, {dataset.counts.test} test
          items.
          {steps &&
            ` ${steps.stepsPerEpoch} step${steps.stepsPerEpoch === 1 ? '' : 's'} per epoch, ${steps.totalSteps} in all.`}
        </p>
      )}

      <RunDashboard />
      {liveStatus === 'completed' && liveRunId && <CompletedExport key={liveRunId} runId={liveRunId} />}
      {liveReason &&
        liveStatus !== 'running' &&
        liveStatus !== 'completed' &&
        liveReasonKind !== 'user' &&
        liveReasonKind !== 'review' &&
        !problemShown && <Alert>{liveReason}</Alert>}
      {liveStatus === 'paused' && liveReasonKind === 'review' && liveRunId && !starting && (
        <ReviewPanel key={`${liveRunId}-${liveReason}`} runId={liveRunId} />
      )}

      <div className="actions-bar">
        {!running && (
          <button
            type="button"
            className="primary"
            onClick={() => void startTraining()}
            disabled={!dataset || problems.length > 0 || starting}
          >
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
            <button
              type="button"
              className="primary"
              onClick={() =>
                void resumeRun(liveRunId!, resumeBudget !== undefined ? { budgetUsd: resumeBudget } : undefined)
              }
            >
              Resume
            </button>
            {liveReasonKind === 'budget' && (
              <NumberField
                label="New budget cap (USD)"
                value={resumeBudget}
                min={0}
                step={0.5}
                onChange={setResumeBudget}
              />
            )}
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

      {dataset && (
        <NoiseAdvice
          validation={
            config.selectionLimit > 0 ? Math.min(config.selectionLimit, dataset.counts.val) : dataset.counts.val
          }
          estimate={estimate}
          budgetUsd={config.budget.usd}
          steps={steps?.totalSteps ?? 0}
        />
      )}

      {estimateCard}
    </div>
  );
}
