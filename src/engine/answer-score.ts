/**
 * Scoring an answer with the run's scorer (DESIGN §3.2); the judge scorer asks the LLM, and a
 * judge that gives no verdict makes an error row, never a wrong answer.
 */
import { stripThinking } from '../core/basics/thinking';
import { scoreResponse, type ScoreResult } from '../core/scoring/scoring';
import type { DatasetItem } from '../core/dataset/dataset-types';
import type { EngineContext } from './context';
import { callOptimizer } from './optimizer-call';
import type { RolloutRow } from './types';

export type AnswerScore = ScoreResult & { judge?: RolloutRow['judge']; judgeError?: string };

function expectedText(item: DatasetItem): string {
  return item.correctChoice ? item.correctChoice : item.answers.join(' | ');
}

const isVerdict = (j: unknown): boolean =>
  typeof j === 'object' && j !== null && typeof (j as { pass?: unknown }).pass === 'boolean';

/** Score with the configured scorer; the judge scorer asks the LLM. */
export async function scoreAnswer(
  ctx: EngineContext,
  item: DatasetItem,
  response: string,
  cacheKey: string,
  /** What the judge grades instead of the answer (an agent's whole trajectory). */
  judged?: string,
): Promise<AnswerScore> {
  const spec = ctx.config.scorer;
  if (spec.kind !== 'judge') return scoreResponse(spec, response, item);
  // The judge grades the answer, not the thinking before it.
  const values = {
    question: item.question,
    expected: expectedText(item),
    rubric: item.rubric ?? spec.rubric ?? '',
    response: judged ?? stripThinking(response),
  };
  // A reply without a verdict is asked once more, then the row is an error — never memoised, so
  // a resumed run asks again instead of replaying the same useless reply for ever.
  let r = await callOptimizer(ctx, `judge/${cacheKey}`, 'judge', values, 'judge', isVerdict);
  if (!isVerdict(r.json) && !r.error)
    r = await callOptimizer(ctx, `judge/${cacheKey}`, 'judge', values, 'judge', isVerdict);
  const predicted = scoreResponse({ kind: 'exact' }, response, item).predicted;
  const j = r.json;
  if (!j || typeof j.pass !== 'boolean') {
    return {
      hard: 0,
      soft: 0,
      predicted,
      judgeError: r.error ? r.error.message : 'the judge did not return {pass, score, reason}',
    };
  }
  const soft =
    typeof j.score === 'number' && Number.isFinite(j.score) ? Math.min(1, Math.max(0, j.score)) : j.pass ? 1 : 0;
  const reason = typeof j.reason === 'string' ? j.reason : '';
  const hard = j.pass ? 1 : 0;
  return {
    hard,
    soft,
    predicted,
    judge: { pass: j.pass, score: soft, reason },
    ...(hard
      ? {}
      : {
          failReason: `JUDGE=0: predicted '${predicted}' but expected ${JSON.stringify(expectedText(item))} — ${reason}`,
        }),
  };
}
