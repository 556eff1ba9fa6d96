/**
 * The SkillOpt training loop (algorithm doc §2): baseline → steps of rollout, reflect,
 * aggregate, select, update, gate → an epoch boundary of slow update and meta skill → final
 * validation, promotion and test evaluation. Every LLM call and stage result is checkpointed,
 * so a stopped run resumes where it was without repeating finished calls and ends exactly as
 * an uninterrupted run would. Results are always combined in a fixed order, never in order of
 * completion, so the outcome does not depend on concurrency or timing.
 */
import { BATCH_PRICE_FACTOR } from '../../core/config/batch-api';
import { batchesForStep, planEpochBatches } from '../../core/config/batching';
import { skillHash } from '../../core/basics/hash';
import { deriveSteps, type RunConfig } from '../../core/config/run-config';
import { createSchedule } from '../../core/config/schedules';
import { createContext } from '../context';
import type { EngineStage, EventSink } from '../events';
import { Meter, outputLimits, type Price, type Prices } from '../meter';
import { callStageOfPhase, callStageOfPrompt, priceTagOfPhase } from '../../core/config/stages';
import { roleOfPrompt } from '../optimizer-call';
import { isPauseError, stopRequestOf } from '../pause';
import { isLlmError, type LlmPort, type RunStore } from '../ports';
import type { PromptSet } from '../prompts';
import { scoreOnSelection, selectionIds } from '../validation-score';
import { rolloutPhase } from '../rollout';
import { noiseReading, withFlips } from '../noise-ledger';
import { isPass } from '../../core/verdict/credit';
import type { FlipUnits } from '../verdict';
import type { EngineContext } from '../context';
import type { RunDataset, RunState, RunStatus, RunSummary } from '../types';
import { runStep } from '../step/run-step';
import { epochBoundary } from '../epoch/boundary';
import { finish } from './finish';
import { endCredit } from './end-credit';

import { baselineMark } from '../curve-marks';
import { curvePassK } from '../curve-pass-k';
import type { ConfirmTarget, TrainSession, TransferSetup } from '../session';
import { otherTargetContexts } from '../other-targets';
import type { ActivationData } from '../activation';
import {
  cleanDescription,
  splitTriggerQueries,
  triggerItems,
  type TriggerQuery,
} from '../../core/dataset/trigger-queries';
import { INITIAL_ORIGIN } from '../../core/skill/version-origin';
import type { PackageFile } from '../../core/skill/skill-package';
import type { ToolEnvironment } from '../environment';
import type { Target } from '../target-port';
import { modelTarget } from '../target/model-target';

export interface TrainInput {
  runId: string;
  config: RunConfig;
  data: RunDataset;
  initialSkill: string;
  prices?: Prices;
  /** Trigger queries and the SKILL.md name and description, for the activation track (config.activationTrack). */
  activation?: ActivationInput;
  /** A skill package's text files that are not trained, which an agent may read (issue #30). */
  packageFiles?: readonly PackageFile[];
}

export interface ActivationInput {
  queries: readonly TriggerQuery[];
  name: string;
  description: string;
}

/** The track's data: the queries as items, split with the run's seed (the same on every resume). */
function activationData(input: TrainInput): ActivationData | undefined {
  const a = input.activation;
  if (!input.config.activationTrack || !a?.queries.length) return undefined;
  return {
    items: triggerItems(a.queries, a.name),
    splits: splitTriggerQueries(a.queries, input.config.seed),
    name: a.name,
    description: cleanDescription(a.description),
  };
}

export interface TrainDeps {
  llm: LlmPort;
  store: RunStore;
  /** The host's environment for agents' tools (a module, MCP servers), when the run has one. */
  environment?: ToolEnvironment;
  prompts: PromptSet;
  onEvent?: EventSink;
  signal?: AbortSignal;
  now?: () => number;
  /** What is trained (engine/target-port.ts), as the service chose it; the model endpoint's target when none is given. */
  target?: Target;
  /** The targets that confirm the starting and best skills on test after training (issue #42 item 5). */
  transfer?: TransferSetup;
  /** Other targets that gate every candidate: each must find it no worse on validation (issue #42 item 5). */
  gateTargets?: readonly ConfirmTarget[];
}

export interface TrainOutcome {
  status: RunStatus;
  reason?: string;
  reasonKind?: string;
  summary?: RunSummary;
}

/** A fresh run's state, before the baseline. */
export function initialRunState(input: TrainInput, now: number): RunState {
  const { totalSteps } = deriveSteps(input.config, input.data.splits.train.length);
  return {
    runId: input.runId,
    status: 'idle',
    config: input.config,
    baselineDone: false,
    nextStep: 1,
    boundaryDoneEpoch: 0,
    finalDone: false,
    gate: {
      currentSkill: input.initialSkill,
      currentScore: 0,
      currentOrigin: INITIAL_ORIGIN,
      bestSkill: input.initialSkill,
      bestScore: 0,
      bestStep: 0,
      bestOrigin: INITIAL_ORIGIN,
    },
    initialSkill: input.initialSkill,
    epochStartSkill: input.initialSkill,
    schedule: createSchedule(
      input.config.editBudgetSchedule,
      input.config.editBudget,
      input.config.minEditBudget,
      totalSteps,
    ),
    stepBuffer: [],
    metaSkill: '',
    selectionCache: {},
    epochStats: [],
    startedAt: now,
    updatedAt: now,
    elapsedMs: 0,
  };
}

/** Usage so far, rebuilt from what the store holds (so a resumed run counts what it spent). */
async function restoreMeter(meter: Meter, store: RunStore, runId: string): Promise<void> {
  // Error rows count too: a judge error follows a target answer that was billed (issue #20 item 10).
  for (const r of await store.listRollouts(runId)) {
    // An agent's row is one call per model turn (its usage is theirs summed).
    if (!r.cached)
      meter.add(
        callStageOfPhase(r.phase),
        'target',
        r.usage,
        r.viaBatch ? BATCH_PRICE_FACTOR : 1,
        r.turns ?? 1,
        priceTagOfPhase(r.phase),
      );
  }
  meter.rebuiltFromRows = true;
  for (const c of await store.listCalls(runId)) meter.add(callStageOfPrompt(c.stage), roleOfPrompt(c.stage), c.usage);
}

/**
 * The noise probe (issue #19): the first few validation items asked a second time with the starting
 * skill. Whether the answers change tells the step verdicts, from the first step on, whether a
 * single answer can be trusted; the run keeps adding to this as its verdicts ask again.
 */
async function probeNoise(ctx: EngineContext, data: RunDataset, skill: string): Promise<FlipUnits> {
  const k = Math.min(ctx.config.noiseProbe ?? 0, selectionIds(ctx.config, data).length);
  if (k <= 0) return {};
  const ids = selectionIds(ctx.config, data).slice(0, k);
  // The baseline's own rows (read, not rolled out again: an errored row stays errored).
  const first = await ctx.store.getRollouts(ctx.runId, 'baseline');
  const again = await rolloutPhase(ctx, { phase: 'baseline/r1', skill, itemIds: ids, repeat: 1 });
  const hash = await skillHash(skill);
  const units: FlipUnits = {};
  for (const r of again.rows) {
    const f = first.find((x) => x.itemId === r.itemId);
    if (r.status === 'ok' && f?.status === 'ok') units[`${hash}|${r.itemId}`] = [isPass(f.hard), isPass(r.hard)];
  }
  return units;
}

/** Each confirming target's own price by its calls' tag (`confirm/<n>`, its phases' prefix), when it has one. */
function confirmPrices(transfer: TrainDeps['transfer']): Record<string, Price> {
  const priced = (transfer?.confirm ?? []).flatMap((c, i) => (c.price ? [[`confirm/${i + 1}`, c.price] as const] : []));
  return Object.fromEntries(priced);
}

export async function runTraining(input: TrainInput, deps: TrainDeps): Promise<TrainOutcome> {
  const now = deps.now ?? (() => Date.now());
  const emit: EventSink = deps.onEvent ?? (() => {});
  const outer = deps.signal ?? new AbortController().signal;
  // Our own signal: a pause decided inside the run (budget, errors) also stops the calls in flight.
  const inner = new AbortController();
  if (outer.aborted) inner.abort(outer.reason);
  else outer.addEventListener('abort', () => inner.abort(outer.reason), { once: true });
  const signal = inner.signal;
  const config = input.config;
  const meter = new Meter(input.prices ?? {}, config.budget, outputLimits(deps.llm), confirmPrices(deps.transfer));
  const ctx = await createContext({
    runId: input.runId,
    config,
    llm: deps.llm,
    store: deps.store,
    prompts: deps.prompts,
    items: input.data.items,
    meter,
    signal,
    emit,
    now,
    datasetTools: input.data.tools,
    packageFiles: input.packageFiles,
    environment: deps.environment,
    target: deps.target ?? modelTarget,
  });
  if (deps.gateTargets?.length) ctx.otherTargets = await otherTargetContexts(ctx, deps.gateTargets);
  const data = input.data;
  const { stepsPerEpoch, totalSteps } = deriveSteps(config, data.splits.train.length);
  let state = (await deps.store.loadState(input.runId)) ?? initialRunState(input, now());
  if (state.meter?.complete) meter.restore(state.meter);
  else await restoreMeter(meter, deps.store, input.runId);
  const sessionStart = now();

  const save = async (s: RunState, ended = false) => {
    s.meter = { ...meter.snapshot(), complete: ended };
    s.updatedAt = now();
    s.elapsedMs += now() - lastSave;
    lastSave = now();
    await deps.store.saveState(s);
  };
  let lastSave = sessionStart;
  const setStatus = async (status: RunStatus, reason?: string, reasonKind?: string) => {
    state.status = status;
    state.reason = reason;
    state.reasonKind = reasonKind;
    await save(state, status !== 'running'); // a session's last save: its meter is whole
    emit({ type: 'status', status, reason, reasonKind });
  };
  const stage = (s: EngineStage, step: number, epoch: number) =>
    emit({ type: 'stage', stage: s, step, epoch, totalSteps });
  const usageEvent = () =>
    emit({ type: 'usage', usage: structuredClone(meter.byStage), totalCostUsd: meter.totalCostUsd });
  const saveVersion = async (text: string, origin: string, step: number) =>
    deps.store.putSkillVersion({
      runId: input.runId,
      hash: await skillHash(text),
      text,
      origin,
      step,
      createdAt: now(),
    });

  const activation = activationData(input);
  const session: TrainSession = {
    ctx,
    data,
    totalSteps,
    stage,
    saveVersion,
    ...(activation ? { activation } : {}),
    ...(deps.transfer?.confirm.length ? { transfer: deps.transfer } : {}),
  };
  await setStatus('running');
  try {
    if (!state.baselineDone) {
      stage('baseline', 0, 0);
      const sel = await scoreOnSelection(ctx, state, data, 'baseline', state.initialSkill);
      state.flips = withFlips(state.flips, await probeNoise(ctx, data, state.initialSkill));
      emit({ type: 'noise', noise: noiseReading(config, state) });
      state.gate = { ...state.gate, currentScore: sel.gate, bestScore: sel.gate };
      state.baselineDone = true;
      state.baselineScore = sel.gate;
      // pass^k of the starting skill, when asked (issue #43): its k tries per item come before its point.
      const passK = await curvePassK(ctx, {
        key: 'baseline',
        skill: state.initialSkill,
        itemIds: selectionIds(config, data),
      });
      // The probe's calls are the baseline's too: the curve's first point stands after both.
      state.baselineMark = { n: sel.score.n, spend: meter.spend(), ...(passK ? { curvePassK: passK } : {}) };
      if (ctx.agent.active) {
        const rows = (await deps.store.getRollouts(input.runId, 'baseline')).filter((r) => r.turns);
        if (rows.length) state.agentTurns = rows.reduce((a, r) => a + (r.turns ?? 0), 0) / rows.length;
        // Each user entry of a conversation is one call of the user simulator.
        const talks = rows.filter((r) => r.trajectory?.some((e) => e.kind === 'user'));
        if (talks.length)
          state.simulatorCalls =
            talks.reduce((a, r) => a + r.trajectory!.filter((e) => e.kind === 'user').length, 0) / talks.length;
      }
      emit({ type: 'baseline', score: sel.gate, n: sel.score.n });
      const mark = baselineMark(state);
      if (mark) emit({ type: 'curve', mark });
      await saveVersion(state.initialSkill, INITIAL_ORIGIN, 0);
      await save(state);
      emit({
        type: 'log',
        level: 'info',
        message: `Baseline: ${sel.gate.toFixed(4)} on ${sel.score.n} validation items.${
          state.agentTurns ? ` Agents took ${state.agentTurns.toFixed(1)} turns per item (each a target call).` : ''
        }`,
      });
      usageEvent();
    }

    for (let epoch = 1; epoch <= config.epochs; epoch++) {
      if (state.boundaryDoneEpoch >= epoch) continue;
      const plan = planEpochBatches(data.splits.train, {
        epoch,
        seed: config.seed,
        batchSize: config.batchSize,
        accumulation: config.accumulation,
        stepsPerEpoch,
      });
      for (let s = 0; s < stepsPerEpoch; s++) {
        const step = (epoch - 1) * stepsPerEpoch + s + 1;
        if (step < state.nextStep) continue;
        state = await runStep(session, state, {
          step,
          epoch,
          stepInEpoch: s,
          batches: batchesForStep(plan, s, config.accumulation),
        });
        await save(state);
        usageEvent();
        emit({ type: 'noise', noise: noiseReading(config, state) });
      }
      state = await epochBoundary(session, state, epoch, epoch * stepsPerEpoch);
      await save(state);
      usageEvent();
    }

    if (!state.finalDone) {
      state = await finish(session, state);
      await save(state);
      usageEvent();
    }
    if ((config.sectionCreditBudget ?? 0) > 0 && state.summary && !state.summary.sectionCredit) {
      const checkpoint = async (p: RunState['creditProgress']) => {
        state = { ...state, creditProgress: p };
        await save(state);
        usageEvent();
      };
      const summary = await endCredit(session, state, {
        ...(input.prices?.target ? { price: input.prices.target } : {}),
        checkpoint,
      });
      state = { ...state, summary };
      await save(state);
      usageEvent();
    }
    await setStatus('completed');
    return { status: 'completed', summary: state.summary };
  } catch (e) {
    const stop = stopRequestOf(outer);
    if (!inner.signal.aborted) inner.abort('stopped');
    if (stop || (isLlmError(e) && e.kind === 'aborted')) {
      const status: RunStatus = stop === 'cancel' ? 'cancelled' : 'paused';
      await setStatus(status, status === 'paused' ? 'Paused by you.' : 'Cancelled by you.', 'user');
      return { status, reason: state.reason, reasonKind: 'user' };
    }
    if (isPauseError(e)) {
      emit({ type: 'log', level: 'warn', message: e.message });
      await setStatus('paused', e.message, e.kind);
      return { status: 'paused', reason: e.message, reasonKind: e.kind };
    }
    const message = e instanceof Error ? e.message : String(e);
    emit({ type: 'log', level: 'error', message });
    await setStatus('failed', `Internal error: ${message}`, 'internal');
    return { status: 'failed', reason: state.reason, reasonKind: 'internal' };
  }
}
