import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { isDemoEndpoint } from '../../client/demo';
import { setApp, useApp } from '../../store/app-store';
import {
  DEFAULT_RUN_CONFIG,
  deriveSteps,
  scaledDefaults,
  validateRunConfig,
  type RunConfig,
} from '../../core/config/run-config';
import {
  DEFAULT_PRESET,
  knobText,
  presetById,
  presetDrift,
  presetFollowingData,
  type PresetId,
} from '../../core/config/knobs';
import { HOSTED_PACE } from '../../core/config/run-duration';
import { DEMO_PACE } from '../../core/simulators/demo-world';
import type { DatasetListItem } from '../../worker/api-types';
import { Alert } from '../common/Field';
import { RunDashboard } from './RunDashboard';
import { RunAlong } from './RunAlong';
import { CompletedExport } from './CompletedExport';
import { ReviewPanel } from './ReviewPanel';
import { NoiseAdvice } from './NoiseAdvice';
import { PresetPicker } from './PresetPicker';
import { SettingsPanel } from './SettingsPanel';
import { EstimateSummary } from './EstimateSummary';
import { TrainActions } from './TrainActions';
import { useEstimate } from './use-estimate';

function patch(p: Partial<RunConfig>) {
  setApp((s) => ({ config: { ...s.config, ...p } }));
}
const setConfig = (config: RunConfig) => setApp({ config });

const defaultsBySize = new Map<number | undefined, Readonly<Record<string, unknown>>>();
/**
 * The defaults a preset starts from and a knob is compared with: the batch sizes follow the data.
 * One object per size, so the memoized panels keep it from render to render.
 */
function defaultsFor(trainSize: number | undefined): Readonly<Record<string, unknown>> {
  let base = defaultsBySize.get(trainSize);
  if (!base)
    defaultsBySize.set(
      trainSize,
      (base = { ...DEFAULT_RUN_CONFIG, ...(trainSize === undefined ? {} : scaledDefaults(trainSize)) }),
    );
  return base;
}

/** While a run runs, its settings in one line: the preset, and each setting changed since. */
function SettingsLine({ config, base }: { config: RunConfig; base: Readonly<Record<string, unknown>> }) {
  const basis = presetById(config.preset) ?? presetById(DEFAULT_PRESET)!;
  const drift = presetDrift(config, basis.id as PresetId, base).map((k) => knobText(k, config));
  const line = `${drift.length ? `Custom (based on ${basis.label})` : basis.label}${drift.length ? `: ${drift.join(' · ')}` : ''}`;
  return (
    <p className="settings-line" data-testid="settings-line" title={line}>
      Settings: <strong>{line}</strong>
    </p>
  );
}

/**
 * The Train screen (issue #33): presets by situation, the essential settings with the rest folded,
 * the estimate in one line, and the primary action stuck to the bottom; while a run runs, the
 * settings fold to one line and the dashboard takes the screen.
 */
export function TrainScreen() {
  const config = useApp((s) => s.config);
  const datasetId = useApp((s) => s.datasetId);
  const demo = useApp((s) => isDemoEndpoint(s.connection.target.baseURL));
  // Primitive selectors: live events must not re-render the whole settings form.
  const liveStatus = useApp((s) => s.live?.status);
  const liveRunId = useApp((s) => s.live?.runId);
  const starting = useApp((s) => s.live?.starting === true);
  const liveReason = useApp((s) => s.live?.reason);
  const liveReasonKind = useApp((s) => s.live?.reasonKind);
  const problemShown = useApp((s) => s.problem !== null);
  const [datasets, setDatasets] = useState<DatasetListItem[]>([]);
  const dataset = datasets.find((d) => d.id === datasetId);
  const base = defaultsFor(dataset?.counts.train);
  const { estimate, listCost } = useEstimate(datasetId, config);

  useEffect(() => {
    void trainer().listDatasets().then(setDatasets);
  }, [datasetId]);

  // The defaults follow the dataset, whose size arrives after the first render: a preset chosen
  // before it did (or before another dataset was chosen) follows them instead of reading as Custom.
  // A layout effect: nothing (a click's check, a screenshot) sees the settings in between.
  const lastBase = useRef(base);
  useLayoutEffect(() => {
    const before = lastBase.current;
    lastBase.current = base;
    if (before === base) return;
    const followed = presetFollowingData(useApp.getState().config, before, base);
    if (followed) setConfig(followed);
  }, [base]);

  const problems = validateRunConfig(config);
  const running = liveStatus === 'running' || starting;
  const steps = dataset ? deriveSteps(config, dataset.counts.train) : null;
  const validation = dataset
    ? config.selectionLimit > 0
      ? Math.min(config.selectionLimit, dataset.counts.val)
      : dataset.counts.val
    : 0;
  const advice = useMemo(
    () =>
      dataset && (
        <NoiseAdvice
          validation={validation}
          estimate={estimate}
          budgetUsd={config.budget.usd}
          steps={steps?.totalSteps ?? 0}
        />
      ),
    [dataset, validation, estimate, config.budget.usd, steps?.totalSteps],
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
      {running && <SettingsLine config={config} base={base} />}

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

      {/* Hidden rather than unmounted while a run runs: the form comes back as it was, at no cost. */}
      <div className="train-setup" hidden={running}>
        <PresetPicker config={config} base={base} setConfig={setConfig} />
        <SettingsPanel config={config} patch={patch} base={base} trainSize={dataset?.counts.train} advice={advice} />
        {estimate && dataset && (
          <EstimateSummary
            estimate={estimate}
            listCost={listCost}
            config={config}
            pace={demo ? DEMO_PACE : HOSTED_PACE}
          />
        )}
      </div>
      <RunAlong />
      <TrainActions ready={Boolean(dataset)} problems={problems} />
    </div>
  );
}
