/**
 * The activation track (issue #23 item 4): at each epoch's end, the SKILL.md `description` —
 * all an agent reads when it decides whether to load the skill — is trained like the body.
 * The target is asked, per trigger query, whether it would load the skill given its name and
 * description (prompts/rollout-trigger.md, scored "yes"/"no"); the optimizer reads the queries
 * it fired wrongly on and rewrites the description (prompts/describe_skill.md); the rewrite is
 * kept only if it decides better on the validation queries, item by item and noise-aware, by the
 * body's gate (engine/gate.ts: its verdict and its gate rule). Rollouts and the call are
 * checkpoints like any other. This module returns outcomes; the epoch boundary and the finish
 * write them into the run state.
 */
import { isPass } from '../core/verdict/credit';
import type { DatasetItem } from '../core/dataset/dataset-types';
import type { NoisePolicy } from '../core/verdict/noise';
import { cleanDescription, type TriggerSplits } from '../core/dataset/trigger-queries';
import { MAX_DESCRIPTION } from '../core/skill/skill-file';
import { splitBundle } from '../core/skill/skill-package';
import type { EngineContext } from './context';
import { callOptimizer } from './optimizer-call';
import { PauseError } from './pause';
import { okRows, rolloutPhase } from './rollout';
import { compareSkills } from './verdict';
import { judge } from './gate';
import type { ActivationEpoch, ActivationState } from './types';
import { activationKey } from './keys';

/** What the track trains on: the queries as items, their split, and the description it starts from. */
export interface ActivationData {
  items: DatasetItem[];
  splits: TriggerSplits;
  name: string;
  description: string;
}

/** Trigger queries are items of their own, asked with the trigger template and scored "yes"/"no". */
export function activationContext(ctx: EngineContext, data: ActivationData): EngineContext {
  return {
    ...ctx,
    items: new Map(data.items.map((i) => [i.id, i])),
    rolloutTemplate: ctx.prompts['rollout-trigger'],
    config: { ...ctx.config, scorer: { kind: 'exact' }, referencesOnDemand: false },
    // Its own cache keys: a description on a query is never a skill on an item.
    targetKey: `${ctx.targetKey}|trigger`,
    // Deciding whether to load a skill is one call, even for an agent's skill: no tools.
    agent: { datasetTools: [], packageFiles: [], environmentTools: [], active: false },
  };
}

const share = (rows: readonly { hard: number }[]) =>
  rows.length ? rows.filter((r) => isPass(r.hard)).length / rows.length : 0;

/** The starting description on the validation queries: where the track's gate starts from. */
export async function activationBaseline(ctx: EngineContext, data: ActivationData): Promise<ActivationState> {
  const tctx = activationContext(ctx, data);
  const r = await rolloutPhase(tctx, {
    phase: 'activation/baseline',
    skill: data.description,
    itemIds: data.splits.val,
  });
  return {
    initialDescription: data.description,
    description: data.description,
    baselineScore: share(okRows(r.rows)),
    score: share(okRows(r.rows)),
    epochs: [],
  };
}

/**
 * One epoch of the track: roll out, rewrite from the misfires, gate; returns the track's new state.
 * The verdict's repeated samples stay the track's own: they never join the body's flip tally.
 */
export async function activationEpoch(
  ctx: EngineContext,
  data: ActivationData,
  prev: ActivationState,
  a: { epoch: number; skill: string; policy: NoisePolicy },
): Promise<ActivationState> {
  const tctx = activationContext(ctx, data);
  const tag = activationKey(a.epoch);
  const current = prev.description;
  const done = (e: ActivationEpoch): ActivationState => ({
    ...prev,
    epochs: [...prev.epochs.filter((x) => x.epoch !== a.epoch), e],
  });
  const train = await rolloutPhase(tctx, { phase: `${tag}/train`, skill: current, itemIds: data.splits.train });
  const rows = okRows(train.rows);
  const trainBefore = share(rows);
  const misfires = rows.filter((r) => !isPass(r.hard));
  if (!misfires.length) return done({ epoch: a.epoch, action: 'no_misfires', trainBefore });
  const query = (id: string) => tctx.items.get(id)!;
  const describe = (r: (typeof rows)[number]) => {
    const should = query(r.itemId).answers[0] === 'yes';
    return `- "${query(r.itemId).question}" — ${should ? 'should load the skill' : 'should not load the skill'}; the agent answered ${r.predicted || 'nothing'}`;
  };
  const res = await callOptimizer(ctx, `${tag}/describe`, 'describe_skill', {
    name: data.name,
    description: current,
    body: splitBundle(a.skill).main.slice(0, 4000),
    misfires: misfires.slice(0, 30).map(describe).join('\n'),
    correct:
      rows
        .filter((r) => isPass(r.hard))
        .slice(0, 10)
        .map(describe)
        .join('\n') || 'None yet.',
    max_chars: String(MAX_DESCRIPTION),
  });
  if (res.error)
    throw new PauseError('error_rate', `The description rewrite failed after retries: ${res.error.message}`);
  const reasoning = typeof res.json?.reasoning === 'string' ? res.json.reasoning : '';
  const candidate = typeof res.json?.description === 'string' ? cleanDescription(res.json.description) : '';
  if (!candidate || candidate === current)
    return done({ epoch: a.epoch, action: 'no_candidate', trainBefore, reasoning });
  const cmp = await compareSkills(tctx, {
    phase: `${tag}/gate`,
    ref: current,
    cand: candidate,
    itemIds: data.splits.val,
    policy: a.policy,
    values: { metric: 'hard' },
  });
  const v = cmp.verdict;
  // The body's gate on the queries' hard values: a strict gain, then the run's gate rule. No train
  // batch, so no tie-break: a tie keeps the description the skill has (gate.ts).
  const j = judge(ctx.config, { ...cmp, gain: v.gain }, { margin: a.policy.margin, tie: null, metric: 'hard' });
  const accept = j.outcome === 'gain' && (j.rule?.allowed ?? true);
  const e: ActivationEpoch = {
    epoch: a.epoch,
    action: accept ? 'accept' : 'reject',
    trainBefore,
    reasoning,
    candidate,
    valCurrent: v.refScore,
    valCandidate: v.candScore,
    ...(j.rule ? { rule: j.rule } : {}),
  };
  return accept ? { ...done(e), description: candidate, score: v.candScore } : done(e);
}

/** The starting and the trained description on the test queries (one pass each; the same text is one pass). */
export async function activationTest(
  ctx: EngineContext,
  data: ActivationData,
  s: ActivationState,
): Promise<NonNullable<ActivationState['test']>> {
  const tctx = activationContext(ctx, data);
  const ids = data.splits.test;
  const initial = await rolloutPhase(tctx, {
    phase: 'activation/test/initial',
    skill: s.initialDescription,
    itemIds: ids,
  });
  const best = await rolloutPhase(tctx, { phase: 'activation/test/best', skill: s.description, itemIds: ids });
  return { initial: share(okRows(initial.rows)), best: share(okRows(best.rows)), n: ids.length };
}
