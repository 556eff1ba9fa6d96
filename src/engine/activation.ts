/**
 * The activation track (issue #23 item 4): at each epoch's end, the SKILL.md `description` —
 * all an agent reads when it decides whether to load the skill — is trained like the body.
 * The target is asked, per trigger query, whether it would load the skill given its name and
 * description (prompts/rollout-trigger.md, scored "yes"/"no"); the optimizer reads the queries
 * it fired wrongly on and rewrites the description (prompts/describe_skill.md); the rewrite is
 * kept only if it decides better on the validation queries, item by item and noise-aware, by the
 * body's gate (engine/gate.ts: the run's comparator asked as an accept is, its gate rule, and —
 * undecided on a noisy agent — more samples before a no). Rollouts and the call are
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
import { compare } from './comparator';
import { buyEvidence, judge, UNDECIDED_FROM } from './gate';
import { acceptAsk } from './validation-score';
import type { ActivationEpoch, ActivationState, RejectedRewrite } from './types';
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

/** The latest rejected rewrites the describer is shown. */
const REJECTED_SHOWN = 5;

/** A rejected rewrite and where it was asked: each ask is an entry, like the step buffer's (§2.7). */
type RejectedAsk = RejectedRewrite & { epoch: number; ask: number };

/** Every rewrite the track's gate has rejected so far, oldest first. */
function rejectedSoFar(epochs: readonly ActivationEpoch[]): RejectedAsk[] {
  return epochs.flatMap((e) => {
    const last =
      e.action === 'reject' && e.candidate && e.valCurrent !== undefined && e.valCandidate !== undefined
        ? [{ candidate: e.candidate, valCurrent: e.valCurrent, valCandidate: e.valCandidate }]
        : [];
    return [...(e.earlier ?? []), ...last].map((r, i) => ({ ...r, epoch: e.epoch, ask: i + 1 }));
  });
}

const pct = (v: number) => `${Math.round(v * 100)} %`;

/**
 * The describer's view of the rejected rewrites, one line per ask (a rewrite written twice was
 * rejected twice: that is news to the describer too); empty when none.
 */
function renderRejected(rejected: readonly RejectedAsk[]): string {
  return rejected
    .slice(-REJECTED_SHOWN)
    .map(
      (r) =>
        `- epoch ${r.epoch}, rewrite ${r.ask}: "${r.candidate}" — validation ${pct(r.valCurrent)} right before, ` +
        `${pct(r.valCandidate)} with it`,
    )
    .join('\n');
}

/**
 * One epoch of the track: roll out, rewrite from the misfires, gate; returns the track's new state.
 * A rejected rewrite is not the epoch's last word (issue #40): a second rewrite is asked, with every
 * rejected one shown (asked the same misfires again, a describer writes the same rejected rewrite
 * again, epoch after epoch). When the first tied at the gate — no worse, not surely better — the
 * second refines it instead (a look-ahead): the tied rewrite is rolled out on the train queries and
 * rewritten from its own misfires, since a step that only ties is often one misfire short of a
 * gain. Either second rewrite meets the description the epoch started with at the gate.
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
  const trainRows = async (phase: string, description: string) =>
    okRows((await rolloutPhase(tctx, { phase, skill: description, itemIds: data.splits.train })).rows);
  const rows = await trainRows(`${tag}/train`, current);
  const trainBefore = share(rows);
  if (rows.every((r) => isPass(r.hard))) return done({ epoch: a.epoch, action: 'no_misfires', trainBefore });
  const body = splitBundle(a.skill).main.slice(0, 4000);
  const values = (description: string, on: typeof rows, rejected: readonly RejectedAsk[]) =>
    describerValues(tctx, { name: data.name, description, body, rows: on, rejected: renderRejected(rejected) });
  const before = rejectedSoFar(prev.epochs);
  const gate = { current, data, policy: a.policy };
  // The first ask keeps the keys it always had (a resumed run replays it); the second has its own.
  const first = await rewriteAndGate(ctx, tctx, {
    ...gate,
    key: tag,
    from: current,
    values: values(current, rows, before),
  });
  if (first.action === 'no_candidate')
    return done({ epoch: a.epoch, action: 'no_candidate', trainBefore, reasoning: first.reasoning });
  const one: ActivationEpoch = { epoch: a.epoch, trainBefore, ...first.record };
  if (first.action === 'accept') return { ...done(one), description: first.record.candidate, score: first.score };
  const rejected: RejectedRewrite = {
    candidate: one.candidate!,
    valCurrent: one.valCurrent!,
    valCandidate: one.valCandidate!,
    ...(one.evidence ? { evidence: one.evidence } : {}),
  };
  const key = `${tag}/try2`;
  const tiedRows = first.tied ? await trainRows(`${key}/train`, rejected.candidate) : [];
  const lookAhead = tiedRows.some((r) => !isPass(r.hard));
  const second = await rewriteAndGate(ctx, tctx, {
    ...gate,
    key,
    ...(lookAhead
      ? { from: rejected.candidate, values: values(rejected.candidate, tiedRows, before) }
      : { from: current, values: values(current, rows, [...before, { ...rejected, epoch: a.epoch, ask: 1 }]) }),
  });
  if (second.action === 'no_candidate') return done(one);
  const two: ActivationEpoch = {
    epoch: a.epoch,
    trainBefore,
    ...second.record,
    earlier: [rejected],
    ...(lookAhead ? { lookAhead: true } : {}),
  };
  return second.action === 'accept'
    ? { ...done(two), description: second.record.candidate, score: second.score }
    : done(two);
}

/** The describer's prompt values: a description and how it decided the train queries. */
function describerValues(
  tctx: EngineContext,
  o: { name: string; description: string; body: string; rows: ReturnType<typeof okRows>; rejected: string },
): Record<string, string> {
  const query = (id: string) => tctx.items.get(id)!;
  const describe = (r: (typeof o.rows)[number]) => {
    const should = query(r.itemId).answers[0] === 'yes';
    return `- "${query(r.itemId).question}" — ${should ? 'should load the skill' : 'should not load the skill'}; the agent answered ${r.predicted || 'nothing'}`;
  };
  return {
    name: o.name,
    description: o.description,
    body: o.body,
    misfires: o.rows
      .filter((r) => !isPass(r.hard))
      .slice(0, 30)
      .map(describe)
      .join('\n'),
    correct:
      o.rows
        .filter((r) => isPass(r.hard))
        .slice(0, 10)
        .map(describe)
        .join('\n') || 'None yet.',
    max_chars: String(MAX_DESCRIPTION),
    rejected: o.rejected,
  };
}

type Tried =
  | { action: 'no_candidate'; reasoning: string }
  | {
      action: 'accept' | 'reject';
      score: number;
      /** Rejected for want of a gain, though no worse on validation (not vetoed by the gate rule). */
      tied: boolean;
      record: Omit<ActivationEpoch, 'epoch' | 'trainBefore'> & { candidate: string };
    };

/** One rewrite of the description and its gate against the current one. */
async function rewriteAndGate(
  ctx: EngineContext,
  tctx: EngineContext,
  o: {
    key: string;
    /** The description the rewrite starts from, and the one it meets at the gate (the epoch's). */
    from: string;
    current: string;
    data: ActivationData;
    values: Record<string, string>;
    policy: NoisePolicy;
  },
): Promise<Tried> {
  const res = await callOptimizer(ctx, `${o.key}/describe`, 'describe_skill', o.values);
  if (res.error)
    throw new PauseError('error_rate', `The description rewrite failed after retries: ${res.error.message}`);
  const reasoning = typeof res.json?.reasoning === 'string' ? res.json.reasoning : '';
  const candidate = typeof res.json?.description === 'string' ? cleanDescription(res.json.description) : '';
  if (!candidate || candidate === o.current || candidate === o.from) return { action: 'no_candidate', reasoning };
  // The run's comparator, asked as the body's gate asks an accept (validation-score.ts): under the
  // posterior a rewrite that changed nothing must be ruled out, each gained query settled, every query
  // scored (the record's shares, and whether a rejected rewrite tied, read all of them). Ten or so
  // validation queries: one query answered once can keep a true gain below "undecided", so the verdict
  // weighs on while "undecided" is still reachable (`reject`), and stops once surely worse (`untilWorse`).
  const ask = (samples?: number) =>
    compare(tctx, {
      phase: `${o.key}/gate`,
      ref: o.current,
      cand: candidate,
      itemIds: o.data.splits.val,
      policy: o.policy,
      mean: { values: { metric: 'hard' } },
      posterior: { ...acceptAsk(ctx.config, samples), scoreAll: true, reject: UNDECIDED_FROM, untilWorse: true },
    }).then((cmp) => ({ cmp }));
  // Undecided on a noisy agent's answers is not "no" (issue #40): the verdict buys more, as the body's gate does.
  const first = await ask();
  const bought = await buyEvidence(ctx.config, o.policy, first, ask);
  const cmp = bought?.more.cmp ?? first.cmp;
  const v = cmp.verdict;
  // The body's gate on the queries' hard values: a strict gain, then the run's gate rule. No train
  // batch, so no tie-break: a tie keeps the description the skill has (gate.ts).
  const j = judge(ctx.config, { ...cmp, gain: v.gain }, { margin: o.policy.margin, tie: null, metric: 'hard' });
  const accept = j.outcome === 'gain' && (j.rule?.allowed ?? true);
  return {
    action: accept ? 'accept' : 'reject',
    score: v.candScore,
    tied: j.outcome === 'none' && v.candScore >= v.refScore,
    record: {
      action: accept ? 'accept' : 'reject',
      reasoning,
      candidate,
      valCurrent: v.refScore,
      valCandidate: v.candScore,
      ...(j.rule ? { rule: j.rule } : {}),
      ...(bought ? { evidence: bought.evidence } : {}),
    },
  };
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
