/**
 * Scoring an agent's trajectory (issue #30): the run's scorer on the final answer (the judge
 * grades the whole conversation), the item's expected and forbidden calls, and the
 * environment's own score, the item's check command's verdict (issue #42 item 4) — hard only
 * when every check passes, soft their mean, and a failure
 * reason that names the turn that went wrong. A conversation with a simulated user that nothing
 * else scores is scored by the user's verdict: was its goal met?
 */
import {
  combineChecks,
  expectedCallChecks,
  forbiddenCallCheck,
  outOfTurnsCheck,
  userGoalCheck,
  type CheckResult,
} from '../core/agent/trajectory-checks';
import { conversationLines } from '../core/agent/transcript';
import { checkResult } from '../core/agent/workspace-task';
import { extractAnswer } from '../core/scoring/answer-extraction';
import type { DatasetItem } from '../core/dataset/dataset-types';
import { turnLimit } from '../core/config/run-config';
import type { TargetRun } from './target-port';
import type { TrajectoryEntry } from '../core/agent/trajectory';
import { scoreAnswer, type AnswerScore } from './answer-score';
import type { EngineContext } from './context';
import { envCall, EnvironmentError, isEnvironmentError } from './environment';

/** A target's run that has a trajectory: an agent's, or a harness's transcript. */
type AgentRun = TargetRun & { entries: TrajectoryEntry[] };

export async function scoreTrajectory(
  ctx: EngineContext,
  item: DatasetItem,
  run: AgentRun,
  cacheKey: string,
): Promise<AnswerScore> {
  const checks: CheckResult[] = [];
  let answerScore: AnswerScore | null = null;
  const finalTurn = run.entries.filter((e) => e.kind === 'assistant').length;
  if (run.answer === null) checks.push(outOfTurnsCheck(run.entries, turnLimit(ctx.config)));
  else if (ctx.config.scorer.kind === 'judge' || item.answers.length || item.correctChoice) {
    const judged = ctx.config.scorer.kind === 'judge' ? transcript(run, ctx.config.toolResultChars ?? 400) : undefined;
    answerScore = await scoreAnswer(ctx, item, run.answer, cacheKey, judged);
    if (answerScore.judgeError) return answerScore;
    checks.push({
      hard: answerScore.hard,
      soft: answerScore.soft,
      ...(answerScore.failReason ? { failReason: `turn ${finalTurn}: ${answerScore.failReason}` } : {}),
    });
  }
  checks.push(...expectedCallChecks(run.entries, item.agent?.expectedToolCalls));
  checks.push(...forbiddenCallCheck(run.entries, item.agent?.forbiddenToolCalls));
  const own = await environmentScore(ctx, run);
  if (own) checks.push(own);
  // A conversation nothing else scores is scored by its simulated user's verdict (issue #31).
  if (!checks.length && item.agent?.user) checks.push(userGoalCheck(run.entries));
  // The item's check last: its reason (the output's tail) closes the row's failure reason.
  if (run.check) checks.push(checkResult(run.check));
  const c = combineChecks(checks);
  return {
    hard: c.hard,
    soft: c.soft,
    predicted: answerScore?.predicted ?? (run.answer === null ? '' : extractAnswer(run.answer)),
    ...(c.failReason ? { failReason: c.failReason } : {}),
    ...(answerScore?.judge ? { judge: answerScore.judge } : {}),
  };
}

/** The whole conversation, as the judge reads it. */
function transcript(run: AgentRun, resultChars: number): string {
  return conversationLines(run.entries, resultChars).join('\n');
}

/** The environment's verdict on the episode; a score that throws is the environment's failure. */
async function environmentScore(ctx: EngineContext, run: AgentRun): Promise<CheckResult | null> {
  const episode = run.episode;
  if (!episode?.score) return null;
  const s = await envCall(ctx.agent.environment, async () => {
    try {
      return await episode.score!({ messages: run.messages, answer: run.answer });
    } catch (e) {
      if (isEnvironmentError(e)) throw e;
      throw new EnvironmentError(`its score threw ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  if (!s) return null;
  const clamp = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
  const hard = clamp(s.hard);
  return {
    hard,
    soft: s.soft === undefined ? hard : clamp(s.soft),
    ...(typeof s.failReason === 'string' && s.failReason ? { failReason: s.failReason } : {}),
  };
}
